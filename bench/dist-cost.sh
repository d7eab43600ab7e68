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
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
bench_pairs_open "$@"

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

bench_pairs "--percentiles" "answer --percentiles --histogram" plain answer
pair_summary "$tmp/pair" "$size" dist_s plain_s
if [ "$pair_ci" != - ] && awk -v lo="${pair_ci%-*}" 'BEGIN { exit !(lo > 1.10) }'; then
	echo "FAIL: a chase with --percentiles takes more than 10% longer to answer" >&2
	exit 1
fi
