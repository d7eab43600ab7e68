#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/pagesize.sh [PAIRS] [SIZE] [PAGEHOP] - how much faster is a random
# pointer chase over a working set far beyond TLB reach on 2 MiB pages than
# on 4 KiB pages?  Pairs of pagehop chase runs over SIZE (default 1G), 4K
# then 2M, the order alternating within pairs so that a drift of the shared
# host favours neither.  On 4 KiB pages nearly every hop also takes a page
# walk; on 2 MiB pages 512 times fewer pages cover the set.  Prints the
# medians, the median per-pair ratio 4K/2M with its 95% confidence interval
# and the sign test's p-value, and exits 1 if the whole interval lies below
# 1 (4K pages faster: the page size did not take effect).  An interval that
# straddles 1 is reported, not failed: on a host under load, or a guest on
# small host pages, the walk's cost can hide in the noise.
#
# Example: bash bench/pagesize.sh 10
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
bench_pairs_open "$@"

# lat PAGE -> ns per hop (the run's median); a figure that cannot be read
# stops the script.  2M pages are reserved for the run and given back.
lat() {
	local out v res=
	[ "$1" = 4k ] || res=--reserve
	out=$("$pagehop" chase --size "$size" --page-size "$1" $res --pattern random --time 2 \
		--format json) || { echo "pagehop chase --page-size $1 failed" >&2; exit 1; }
	v=$(jq -er '.chase[0] | select(.verified == true) | .lat_ns' <<<"$out") ||
		{ echo "pagehop chase --page-size $1: no verified lat_ns in its JSON" >&2; exit 1; }
	echo "$v"
}

bench_pairs 4K "lat 4k" 2M "lat 2m"
pair_summary "$tmp/pair" "$size" 4k_ns 2m_ns
if [ "$pair_ci" != - ] && awk -v hi="${pair_ci#*-}" 'BEGIN { exit !(hi < 1) }'; then
	echo "FAIL: 4K pages faster than 2M pages over $size: the page size did not take effect" >&2
	exit 1
fi
