#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/peers.sh [PAIRS] - pagehop's STREAM kernels against likwid-bench's
# (Debian's likwid) on this machine: copy and triad ("stream" in likwid), 1
# and 2 threads, a 1 GiB working set, normal and non-temporal stores.
#
# The host is shared and noisy, so nothing here is a single number: the two
# tools run interleaved, A B A B, PAIRS times (default 5) per case; each run
# takes the best variant of its tool (pagehop: sse2 and avx2; likwid: its
# scalar, SSE, AVX and AVX-FMA kernels), and the figure is the median over
# pairs of pagehop / likwid.  Both count bytes as STREAM does (copy 16,
# triad 24 per element), pin threads to the first CPUs and run on 4 KiB
# pages (likwid takes what malloc gives; PAGE_SIZE=2m runs pagehop on 2 MiB
# pages instead, to show what the page size alone is worth).  likwid's
# "1GB" is 10^9 bytes over all arrays, pagehop's --size 1G is 2^30: both
# far beyond the caches.
#
# Needs: scripts/install-deps.sh bench (likwid), a built build/pagehop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pagehop=$root/build/pagehop
pairs=${1:-5}
page=${PAGE_SIZE:-4k}
reserve=
[ "$page" = 4k ] || reserve=--reserve
command -v likwid-bench >/dev/null || { echo "likwid-bench missing: bash scripts/install-deps.sh bench" >&2; exit 4; }
[ -x "$pagehop" ] || { echo "build/pagehop missing: make" >&2; exit 4; }

# best_pagehop KERNEL THREADS NT -> GB/s (10^9), the best of sse2 and avx2
best_pagehop() {
	local k=$1 t=$2 nt=$3 best=0 v isa
	for isa in sse2 avx2; do
		v=$("$pagehop" stream --kernel "$k" --isa $isa $nt --threads "$t" --size 1G --time 1 \
			--page-size "$page" $reserve \
			--format json 2>/dev/null | jq -r '.stream[0].bw_GBps') || continue
		best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
	done
	echo "$best"
}

# best_likwid KERNELS THREADS -> GB/s (likwid's MByte/s is 10^6 bytes/s)
best_likwid() {
	local t=$2 best=0 v k
	for k in $1; do
		# -i 30: a fixed 30 passes, skipping likwid's own calibration run.
		v=$(likwid-bench -i 30 -t "$k" -w "S0:1GB:$t" 2>/dev/null | awk '/^MByte\/s:/ { print $2 / 1000 }')
		[ -n "$v" ] || continue
		best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
	done
	echo "$best"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

printf '%-6s %-7s %-3s %12s %12s %8s %s\n' kernel stores thr pagehop_GBps likwid_GBps ratio pairs
for kernel in copy triad; do
	for nt in "" --nt; do
		case "$kernel$nt" in
		copy) lk="copy copy_sse copy_avx" ;;
		copy--nt) lk="copy_mem copy_mem_sse copy_mem_avx" ;;
		triad) lk="stream stream_sse stream_avx stream_avx_fma" ;;
		# likwid 5.2.2's stream_mem (scalar, non-temporal) crashes; its SSE and
		# AVX non-temporal versions stand for it.
		triad--nt) lk="stream_mem_sse stream_mem_avx stream_mem_avx_fma" ;;
		esac
		for t in 1 2; do
			ratios=() ph=() lw=()
			for ((p = 0; p < pairs; p++)); do
				a=$(best_pagehop $kernel $t "$nt")
				b=$(best_likwid "$lk" $t)
				ph+=("$a") lw+=("$b")
				ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')")
			done
			printf '%-6s %-7s %-3s %12.2f %12.2f %8.3f %s\n' $kernel "$([ -n "$nt" ] && echo nt || echo normal)" $t \
				"$(printf '%s\n' "${ph[@]}" | median)" "$(printf '%s\n' "${lw[@]}" | median)" \
				"$(printf '%s\n' "${ratios[@]}" | median)" "$pairs"
		done
	done
done
