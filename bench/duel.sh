#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/duel.sh PAIRS KERNEL THREADS LIKWID_KERNEL [ISA] - one case of
# bench/peers.sh, with many pairs: pagehop's KERNEL (copy, triad; append
# --nt for non-temporal stores, as in "triad--nt") at ISA (default:
# "default", no --isa, what a user gets) against likwid-bench's
# LIKWID_KERNEL, THREADS threads, 1 GiB, 4 KiB pages.
#
# peers.sh runs every variant of both tools and so affords few pairs per
# case; a case it leaves in doubt is settled here, with one variant each and
# enough pairs for a sign test.  The order alternates within pairs (pagehop
# first, then likwid first), so that a drift of the host during a pair
# favours neither tool.  Prints both tools' median GB/s, the median of the
# per-pair ratios pagehop/likwid with its 95% confidence interval, how many
# pairs pagehop won, and the sign test's two-sided p-value: below 0.05, the
# pairs tell the two tools apart.  PAGE_SIZE as in peers.sh.
#
# Example: bash bench/duel.sh 40 triad--nt 1 stream_mem_avx_fma
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 PAIRS KERNEL[--nt] THREADS LIKWID_KERNEL [ISA]" >&2; exit 2; }
if [ $# -lt 4 ] || [ $# -gt 5 ]; then usage; fi
pairs=$1 kernel=${2%--nt} threads=$3 lk=$4 isa=${5:-default} nt=
[ "$2" = "$kernel" ] || nt=--nt
case $pairs in '' | *[!0-9]* | 0) usage ;; esac
case $threads in '' | *[!0-9]* | 0) usage ;; esac
case $kernel in copy | scale | add | triad) ;; *) usage ;; esac
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
likwid-bench -a 2>/dev/null | awk '{ print $1 }' | grep -qx -- "$lk" ||
	{ echo "$lk: not a likwid-bench kernel (likwid-bench -a lists them)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((p = 0; p < pairs; p++)); do
	# One assignment a line: set -e then stops on a pagehop figure that
	# cannot be read (bench/lib.sh).
	if ((p % 2 == 0)); then
		a=$(run_pagehop "$kernel" "$isa" "$threads" "$nt")
		b=$(run_likwid "$lk" "$threads")
	else
		b=$(run_likwid "$lk" "$threads")
		a=$(run_pagehop "$kernel" "$isa" "$threads" "$nt")
	fi
	echo "$a $b" >>"$tmp/pair"
	[ -t 2 ] && printf '\r  pair %d of %d: pagehop %s, likwid %s GB/s ' $((p + 1)) "$pairs" "$a" "$b" >&2
done
[ -t 2 ] && printf '\r\033[K' >&2
# Pairs where a tool failed (0 GB/s) are left out.
awk '$1 > 0 && $2 > 0' "$tmp/pair" >"$tmp/ok"
n=$(wc -l <"$tmp/ok") failed=$((pairs - $(wc -l <"$tmp/ok")))
awk '{ printf "%.4f\n", $1 / $2 }' "$tmp/ok" >"$tmp/ratio"
[ "$n" -gt 0 ] || { echo "no pair where both tools ran" >&2; exit 1; }
wins=$(awk '$1 > 1' "$tmp/ratio" | wc -l)
printf '%-6s %-7s %-3s %-7s %-18s %12s %12s %8s %-12s %-9s %s\n' kernel stores thr isa likwid \
	pagehop_GBps likwid_GBps ratio ratio_ci95 wins sign_p
printf '%-6s %-7s %-3s %-7s %-18s %12.2f %12.2f %8.3f %-12s %-9s %s\n' "$kernel" \
	"$([ -n "$nt" ] && echo nt || echo normal)" "$threads" "$isa" "$lk" \
	"$(awk '{ print $1 }' "$tmp/ok" | median)" "$(awk '{ print $2 }' "$tmp/ok" | median)" \
	"$(median <"$tmp/ratio")" "$(ci95 <"$tmp/ratio")" "$wins/$n" "$(sign_p "$wins" "$n")"
[ "$failed" -eq 0 ] || echo "($failed pairs left out: a tool failed)" >&2
