#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/chains.sh [PAIRS] [K_LO K_HI] [PAGEHOP] - does walking more chains
# at once ever cost more per load in L1?  Pairs of pagehop chase runs on a
# 16 KiB random chain (in L1 on every x86-64 core), K_LO chains then K_HI
# chains (default 3 and 4), the order alternating within pairs so that a
# drift of the host favours neither.  A chain head kept on the stack rather
# than in a register adds a store and a load to each of its hops: in L1
# that shows as a time per load that rises with K (0.37 -> 0.74 ns from 3
# to 4 chains before the walkers were rewritten, kernels/chase.c), where
# independent chains should make it fall or stay.  Prints the medians and
# the median per-pair ratio HI/LO with its 95% confidence interval, and
# exits 1 if the whole interval lies above 1.02 (HI costs more per load).
#
# Example: bash bench/chains.sh 20
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [PAIRS] [K_LO K_HI] [PAGEHOP]" >&2; exit 2; }
pairs=${1:-20} lo=${2:-3} hi=${3:-4} pagehop=${4:-$root/build/pagehop}
for v in "$pairs" "$lo" "$hi"; do case $v in '' | *[!0-9]* | 0) usage ;; esac; done
command -v jq >/dev/null || { echo "jq missing: bash scripts/install-deps.sh bench" >&2; exit 4; }
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"

# per_load K -> ns per load (median of one run); a figure that cannot be
# read stops the script.
per_load() {
	local out v
	out=$("$pagehop" chase --size 16K --pattern random --chains "$1" --time 0.5 --format json) ||
		{ echo "pagehop chase --chains $1 failed" >&2; exit 1; }
	v=$(jq -er '.chase[0].lat_ns' <<<"$out") ||
		{ echo "pagehop chase --chains $1: no lat_ns in its JSON" >&2; exit 1; }
	echo "$v"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((p = 0; p < pairs; p++)); do
	if ((p % 2 == 0)); then
		a=$(per_load "$lo") b=$(per_load "$hi")
	else
		b=$(per_load "$hi") a=$(per_load "$lo")
	fi
	echo "$a $b" >>"$tmp/pair"
	[ -t 2 ] && printf '\r  pair %d of %d: %s chains %s ns, %s chains %s ns ' $((p + 1)) "$pairs" \
		"$lo" "$a" "$hi" "$b" >&2
done
[ -t 2 ] && printf '\r\033[K' >&2
awk '{ printf "%.4f\n", $2 / $1 }' "$tmp/pair" >"$tmp/ratio"
ci=$(ci95 <"$tmp/ratio")
printf '%-6s %-6s %-6s %10s %10s %8s %s\n' pairs k_lo k_hi lo_ns_load hi_ns_load ratio ratio_ci95
printf '%-6s %-6s %-6s %10.3f %10.3f %8.3f %s\n' "$pairs" "$lo" "$hi" \
	"$(awk '{ print $1 }' "$tmp/pair" | median)" "$(awk '{ print $2 }' "$tmp/pair" | median)" \
	"$(median <"$tmp/ratio")" "$ci"
if [ "$ci" != - ] && awk -v lo="${ci%-*}" 'BEGIN { exit !(lo > 1.02) }'; then
	echo "FAIL: $hi chains cost more per load than $lo in L1: a chain head is not in a register" >&2
	exit 1
fi
