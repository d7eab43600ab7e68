#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/dist-cost.sh [PAIRS] [SIZE] [PAGEHOP] - what a latency distribution
# costs: pairs of "pagehop chase" runs over SIZE (default 1G, chase's
# default), plain and with --percentiles --histogram, the order alternating
# within pairs so that a drift of the shared host favours neither.  The
# figure is the time to answer, the command's wall time from start to
# exit.  Prints the medians, the median per-pair ratio (with / plain) with
# its 95% confidence interval and the sign test's p-value, and exits 1 if
# the whole interval lies above 1.10: the distribution costs more than 10%.
#
# Example: bash bench/dist-cost.sh 10
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [PAIRS] [SIZE] [PAGEHOP]" >&2; exit 2; }
pairs=${1:-10} size=${2:-1G} pagehop_arg=${3:-}
case $pairs in '' | *[!0-9]* | 0) usage ;; esac
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
[ -z "$pagehop_arg" ] || pagehop=$pagehop_arg
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }

# answer [OPTIONS...] -> seconds from start to exit of one chase; a run
# that fails, or whose JSON lacks what was asked, stops the script.
answer() {
	local t0 t1 out
	t0=$(date +%s.%N)
	out=$("$pagehop" chase --size "$size" --format json "$@") ||
		{ echo "pagehop chase $* failed" >&2; exit 1; }
	t1=$(date +%s.%N)
	jq -e '.chase[0].lat_ns | numbers' <<<"$out" >/dev/null ||
		{ echo "pagehop chase $*: no lat_ns in its JSON" >&2; exit 1; }
	[ $# -eq 0 ] || jq -e '.chase_dist[0].p99_ns | numbers' <<<"$out" >/dev/null ||
		{ echo "pagehop chase $*: no p99_ns in its JSON" >&2; exit 1; }
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((p = 0; p < pairs; p++)); do
	if ((p % 2 == 0)); then
		a=$(answer) b=$(answer --percentiles --histogram)
	else
		b=$(answer --percentiles --histogram) a=$(answer)
	fi
	echo "$b $a" >>"$tmp/pair"
	printf '  pair %d of %d: plain %s s, --percentiles %s s\n' $((p + 1)) "$pairs" "$a" "$b" >&2
done
pair_summary "$tmp/pair" "$size" dist_s plain_s
if [ "$pair_ci" != - ] && awk -v lo="${pair_ci%-*}" 'BEGIN { exit !(lo > 1.10) }'; then
	echo "FAIL: a chase with --percentiles takes more than 10% longer to answer" >&2
	exit 1
fi
