#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/scan.sh [ROUNDS] [SIZE] [PAGEHOP] - how fast pagehop scan measures:
# GiB of memory measured per second of measuring (its document's
# measured_GiB over measuring_s: from each range's binding to its last
# figure, the arrays written and checked, the chain built, both figures;
# not the pinning nor the views' readback), on SIZE of the first node
# in 512 MiB ranges, with --budget 4.  Interleaved in each round, the peer:
# the same two figures on one SIZE buffer by pagehop stream --kernel read
# and pagehop chase --pattern page:4K with --time 0.2 (what a scan range's
# figures get under that budget), its GiB per second of their time less
# laying out the memory, as the scan's measuring_s counts.  Prints
# each round, the medians, and the median per-round ratio scan/peer.
#
# Example: bash bench/scan.sh 5 2G
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5} size=${2:-2G} pagehop=${3:-$root/build/pagehop}
case $rounds in '' | *[!0-9]* | 0) echo "usage: $0 [ROUNDS] [SIZE] [PAGEHOP]" >&2; exit 2 ;; esac
command -v jq >/dev/null || { echo "jq missing: bash scripts/install-deps.sh bench" >&2; exit 4; }
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gib=$(awk -v s="$size" 'BEGIN { u = substr(s, length(s)); n = substr(s, 1, length(s) - 1);
	print (u == "G" ? n : u == "M" ? n / 1024 : s / 1073741824) }')
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for r in $(seq "$rounds"); do
	"$pagehop" scan --node 0 --size "$size" --range 512M --budget 4 --format json >"$tmp/s.json" 2>/dev/null || [ $? = 1 ]
	s=$(jq -r '.scan_method.measured_GiB / .scan_method.measuring_s' "$tmp/s.json")
	"$pagehop" stream --kernel read --membind 0 --threads 1 --size "$size" --time 0.2 --format json >"$tmp/b.json" 2>/dev/null
	"$pagehop" chase --pattern page:4K --membind 0 --size "$size" --time 0.2 --format json >"$tmp/l.json" 2>/dev/null
	# Their time less laying out (alloc, touch): what the scan's measuring_s counts too.
	t=$(jq -s 'map(.time.total_s - .time.alloc_s - .time.touch_s) | add' "$tmp/b.json" "$tmp/l.json")
	p=$(awk -v g="$gib" -v t="$t" 'BEGIN { printf "%.3f", g / t }')
	echo "round $r: scan $s GiB/s of measuring, peer $p GiB/s"
	echo "$s" >>"$tmp/scan"
	echo "$p" >>"$tmp/peer"
	awk -v a="$s" -v b="$p" 'BEGIN { print a / b }' >>"$tmp/ratio"
done
echo "median: scan $(median <"$tmp/scan") GiB/s, peer $(median <"$tmp/peer") GiB/s, scan/peer $(median <"$tmp/ratio")"
