#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/peers.sh [PAIRS] - pagehop's STREAM kernels against likwid-bench's
# (Debian's likwid) on this machine: copy and triad ("stream" in likwid), 1
# and 2 threads, a 1 GiB working set, normal and non-temporal stores.
#
# The host is shared and noisy, so nothing here is a single number.  Per
# case, PAIRS times (default 5), every variant of both tools runs once,
# interleaved: pagehop sse2, avx2 and its default (no --isa: what --isa
# auto chooses, what a user gets), then likwid's scalar, SSE, AVX (and
# AVX-FMA) kernels.  Each tool's best variant is the one with the highest
# median over the pairs; the ratio is the median over pairs of pagehop's
# best variant / likwid's best variant in the same pair.  Choosing a variant
# for being high and then counting the runs that made it high inflates it,
# and the more so the more variants a tool has (the maximum of four noisy
# runs beats the maximum of two; taking each pair's best run did that worst),
# so a pair's ratio uses the variants that are best over the *other* pairs.
# pagehop_best and likwid_best name the variants best over all pairs.
# ratio_ci95 is the 95% confidence interval of that median (from 6 pairs):
# where it holds 1.0, the pairs cannot tell the two tools apart.
# default_GBps, default_ratio and default_ci95 are the same for pagehop's
# default alone (no choosing on pagehop's side) against likwid's best
# variant, chosen on the other pairs as above.
#
# Both count bytes as STREAM does (copy 16, triad 24 per element), pin
# threads to the first CPUs and run on 4 KiB pages (likwid takes what malloc
# gives; PAGE_SIZE=2m runs pagehop on 2 MiB pages instead, to show what the
# page size alone is worth).  likwid's "1GB" is 10^9 bytes over all arrays,
# pagehop's --size 1G is 2^30: both far beyond the caches.
#
# CASES="triad triad--nt" runs only those kernels (--nt: non-temporal);
# ISAS="avx2 default" only those pagehop variants (default last).
# PAIRS_DIR=DIR keeps each case's runs there (ph-CASE-THREADS: pagehop's
# sse2, avx2, default per pair; lw-CASE-THREADS: likwid's kernels), GB/s.
#
# Needs: scripts/install-deps.sh bench (likwid), a built build/pagehop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
pairs=${1:-5}
case $pairs in '' | *[!0-9]* | 0) echo "usage: $0 [PAIRS >= 1]" >&2; exit 2 ;; esac

# best FILE [SKIP] -> the column (1-based) with the highest median; FILE has
# one row per pair, one column per variant.  SKIP leaves that row (pair) out,
# unless it is the only one.
best() {
	local col best=1 m bm=-1 skip=${2:-0}
	[ "$(wc -l <"$1")" -gt 1 ] || skip=0
	for ((col = 1; col <= $(head -n1 "$1" | wc -w); col++)); do
		m=$(awk -v c=$col -v s="$skip" 'NR != s { print $c }' "$1" | median)
		if awk -v a="$m" -v b="$bm" 'BEGIN { exit !(a > b) }'; then
			best=$col bm=$m
		fi
	done
	echo $best
}

# pick FILE ROW -> row ROW's value of the variant best over the other rows.
pick() { awk -v r="$2" -v c="$(best "$1" "$2")" 'NR == r { print $c }' "$1"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -ra isas <<<"${ISAS:-sse2 avx2 default}"
[ "${isas[${#isas[@]} - 1]}" = default ] || { echo "ISAS must end with default" >&2; exit 2; }
printf '%-6s %-7s %-3s %-14s %-18s %12s %12s %8s %-12s %12s %13s %-12s %s\n' kernel stores thr pagehop_best \
	likwid_best pagehop_GBps likwid_GBps ratio ratio_ci95 default_GBps default_ratio default_ci95 pairs
for kernel in copy triad; do
	for nt in "" --nt; do
		case " ${CASES:-copy copy--nt triad triad--nt} " in *" $kernel$nt "*) ;; *) continue ;; esac
		case "$kernel$nt" in
		copy) lk=(copy copy_sse copy_avx) ;;
		copy--nt) lk=(copy_mem copy_mem_sse copy_mem_avx) ;;
		triad) lk=(stream stream_sse stream_avx stream_avx_fma) ;;
		# likwid 5.2.2's stream_mem (scalar, non-temporal) crashes; its SSE and
		# AVX non-temporal versions stand for it.
		triad--nt) lk=(stream_mem_sse stream_mem_avx stream_mem_avx_fma) ;;
		esac
		for t in 1 2; do
			: >"$tmp/ph" && : >"$tmp/lw"
			for ((p = 0; p < pairs; p++)); do
				row=()
				for isa in "${isas[@]}"; do row+=("$(run_pagehop $kernel "$isa" $t "$nt")"); done
				echo "${row[*]}" >>"$tmp/ph"
				row=()
				for k in "${lk[@]}"; do row+=("$(run_likwid "$k" $t)"); done
				echo "${row[*]}" >>"$tmp/lw"
			done
			# Each pair's ratio compares the variants that are best over the
			# other pairs, so that no run is both chosen for being high and
			# counted (see the head of this file).
			: >"$tmp/pair"
			for ((p = 1; p <= pairs; p++)); do
				# pagehop's best, likwid's best, pagehop's default (the last column)
				echo "$(pick "$tmp/ph" $p) $(pick "$tmp/lw" $p)" \
					"$(awk -v r=$p 'NR == r { print $NF }' "$tmp/ph")" >>"$tmp/pair"
			done
			a=$(best "$tmp/ph") b=$(best "$tmp/lw")
			awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' "$tmp/pair" >"$tmp/ratio"
			awk '{ printf "%.4f\n", ($2 > 0 ? $3 / $2 : 0) }' "$tmp/pair" >"$tmp/dratio"
			printf '%-6s %-7s %-3s %-14s %-18s %12.2f %12.2f %8.3f %-12s %12.2f %13.3f %-12s %s\n' $kernel \
				"$([ -n "$nt" ] && echo nt || echo normal)" $t "${isas[a - 1]}" "${lk[b - 1]}" \
				"$(awk '{ print $1 }' "$tmp/pair" | median)" "$(awk '{ print $2 }' "$tmp/pair" | median)" \
				"$(median <"$tmp/ratio")" "$(ci95 <"$tmp/ratio")" \
				"$(awk '{ print $3 }' "$tmp/pair" | median)" "$(median <"$tmp/dratio")" \
				"$(ci95 <"$tmp/dratio")" "$pairs"
			if [ -n "${PAIRS_DIR:-}" ]; then
				cp "$tmp/ph" "$PAIRS_DIR/ph-$kernel$nt-$t"
				cp "$tmp/lw" "$PAIRS_DIR/lw-$kernel$nt-$t"
			fi
		done
	done
done
