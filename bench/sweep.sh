#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# MULTICHASE_SRC=DIR bench/sweep.sh [PAIRS] - the setup of the default
# `pagehop pages` sweep on 4 KiB pages against the time multichase takes to
# build its chain for that sweep's largest working set alone, in
# interleaved pairs (default 5), the order alternating within pairs.
#   pagehop: `pages --page-sizes 4k --time 0.1 --format json`, its
#     document's setup_s (alloc, touch, placement read back, every chain
#     built and checked, the bandwidth arrays written: docs/pagehop.1
#     TIME); --time only shortens the measuring, which setup_s leaves out.
#     The largest working set is read from its pages table.
#   multichase: `-m SIZE -T SIZE -s 64 -n 1 -v` (a uniform random chase over
#     SIZE, every 64-byte line), under a pseudo-terminal (script) so that
#     its stdout reaches us line by line; its build time is from the start
#     to its "samples" line, which it prints once the chain is built (its
#     allocation and first touch included) and its threads are chasing,
#     before its first 0.5 s sample.
# Prints each pair, then the median per-pair ratio pagehop setup /
# multichase build with its 95% confidence interval and the sign test's
# p-value against 1, and the median of pagehop's chain_s.  multichase is
# built from DIR in a temporary directory (never in the tree).  Exit 4 if
# MULTICHASE_SRC is not set or does not build, or a tool is missing.
#
# Example: MULTICHASE_SRC=~/src/multichase bash bench/sweep.sh 6
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pairs=${1:-5}
case $pairs in '' | *[!0-9]* | 0) echo "usage: MULTICHASE_SRC=DIR $0 [PAIRS >= 1]" >&2; exit 2 ;; esac
command -v script >/dev/null || { echo "script missing (Debian: bsdutils)" >&2; exit 4; }
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
pagehop=${PAGEHOP:-$pagehop}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
multichase_build "$tmp"

# ph -> "setup_s chain_s largest_KiB"; a run without a verified figure stops the script.
ph() {
	"$pagehop" pages --page-sizes 4k --time 0.1 --format json >"$tmp/ph.json" ||
		{ echo "pagehop pages failed" >&2; exit 1; }
	jq -er '(.pages | map(select(.verified == true)) | max_by(.ws_KiB).ws_KiB) as $k
		| "\(.time.setup_s) \(.time.chain_s) \($k)"' "$tmp/ph.json" ||
		{ echo "pagehop pages: no verified figure or no time block" >&2; exit 1; }
}

# mcbuild KIB -> seconds from multichase's start to its "samples" line.
mcbuild() {
	local t0 t
	t0=$(date +%s.%N)
	t=$(script -qfec "$mc -m $1k -T $1k -s 64 -n 1 -v" /dev/null |
		while IFS= read -r line; do case $line in samples*) date +%s.%N ;; esac; done)
	[ -n "$t" ] || { echo "multichase -m $1k: no samples line" >&2; exit 1; }
	awk -v a="$t0" -v b="$t" 'BEGIN { printf "%.3f\n", b - a }'
}

# The largest working set, from a first run (not counted: it also warms the binary's pages).
read -r _ _ kib <<<"$(ph)"
printf '# pagehop %s pages --page-sizes 4k (largest working set %d MiB) against multichase (%s) -m %dM -T %dM -s 64; %d pairs\n' \
	"$pagehop" $((kib / 1024)) "$MULTICHASE_SRC" $((kib / 1024)) $((kib / 1024)) "$pairs"
printf '%-5s %12s %12s %10s %7s\n' pair mc_build_s ph_setup_s ph_chain_s ratio
: >"$tmp/pairs"
for ((p = 1; p <= pairs; p++)); do
	if ((p % 2)); then
		m=$(mcbuild "$kib")
		read -r setup chain _ <<<"$(ph)"
	else
		read -r setup chain _ <<<"$(ph)"
		m=$(mcbuild "$kib")
	fi
	r=$(awk -v a="$setup" -v b="$m" 'BEGIN { printf "%.3f", a / b }')
	echo "$m $setup $chain $r" >>"$tmp/pairs"
	printf '%-5d %12.2f %12.2f %10.2f %7s\n' "$p" "$m" "$setup" "$chain" "$r"
done
awk '{ print $4 }' "$tmp/pairs" >"$tmp/r"
printf 'ratio (pagehop setup / multichase build): median %s, 95%% CI %s, sign test p %s (%d of %d below 1); pagehop chain_s median %s\n' \
	"$(median <"$tmp/r")" "$(ci95 <"$tmp/r")" "$(sign_p "$(awk '$1 < 1' "$tmp/r" | wc -l)" "$pairs")" \
	"$(awk '$1 < 1' "$tmp/r" | wc -l)" "$pairs" "$(awk '{ print $3 }' "$tmp/pairs" | median)"
