#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# MULTICHASE_SRC=DIR bench/multichase.sh [PAIRS] [SAMPLES] - pagehop chase
# against google/multichase, interleaved pairs, the order alternating within
# pairs.  Cases: a uniform random chase over 1 GiB (SIZE) on 4 KiB pages, on
# THP, and on 1 GiB pages where the host has them (pool grown for the run
# and put back), and a 256 KiB TLB locality over the same size on 4 KiB
# pages (pagehop tlb:256K; multichase -T 256k).  Both walk every 64-byte
# line (multichase -s 64).  multichase is built from DIR in a temporary
# directory (never in the tree) and runs SAMPLES (default 10) 0.5 s samples
# after the one it drops; pagehop --time is as long.  From each pair:
#   pagehop's minimum (lat_min_ns) / multichase's best sample, and
#   pagehop's median (lat_ns) / multichase's average (its -a figure, from
#   the same run's samples, -v), and
#   pagehop's median / the median of multichase's samples (the same
#   statistic on both sides: if the second ratio is below 1 and this one is
#   not, the gap is the average's, not the chase's),
# which are different statistics: a minimum against a minimum, a centre
# against a centre.  Prints each ratio's median over pairs with its 95%
# confidence interval and the sign test's p-value.  CASES overrides the
# cases ("4k thp 1g tlb"), SIZE the size.  Exit 4 if MULTICHASE_SRC is not
# set or does not build, or jq is missing.
#
# Example: MULTICHASE_SRC=~/src/multichase bash bench/multichase.sh 5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: MULTICHASE_SRC=DIR $0 [PAIRS] [SAMPLES]" >&2; exit 2; }
pairs=${1:-5} samples=${2:-10} size=${SIZE:-1G}
case $pairs$samples in '' | *[!0-9]*) usage ;; esac
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
pagehop=${PAGEHOP:-$pagehop}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
multichase_build "$tmp"
pool1g=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
secs=$(awk -v n="$samples" 'BEGIN { print n * 0.5 }')

# ph CASE -> "min median" ns
ph() {
	local a
	case $1 in
	4k) a=(--page-size 4k) ;;
	thp) a=(--page-size thp) ;;
	1g) a=(--page-size 1g --reserve) ;;
	tlb) a=(--page-size 4k --pattern tlb:256K) ;;
	esac
	"$pagehop" chase --size "$size" "${a[@]}" --time "$secs" --ci 0.01 --format json >"$tmp/ph.json" ||
		{ echo "pagehop chase $1 failed" >&2; exit 1; }
	jq -er '.chase[0] | select(.verified == true) | "\(.lat_min_ns) \(.lat_ns)"' "$tmp/ph.json" ||
		{ echo "pagehop chase $1: no verified figure" >&2; exit 1; }
}

# mcrun CASE -> "best average median" ns, from the samples of one run (-v).
mcrun() {
	local a=(-m "$size" -s 64 -n "$samples" -v) pages
	case $1 in
	4k) a+=(-T "$size") ;;
	thp) a+=(-T "$size" -H) ;;
	1g) a+=(-T "$size" -p 1g) ;;
	tlb) a+=(-T 256k) ;;
	esac
	if [ "$1" = 1g ]; then
		pages=$(($(numfmt --from=iec "$size") / 1073741824))
		echo "$pages" >"$pool1g"
		"$mc" "${a[@]}" >"$tmp/mc.out" 2>&1 || { echo 0 >"$pool1g"; echo "multichase $1 failed: $(tail -n 2 "$tmp/mc.out")" >&2; exit 1; }
		echo 0 >"$pool1g"
	else
		"$mc" "${a[@]}" >"$tmp/mc.out" 2>&1 || { echo "multichase $1 failed: $(tail -n 2 "$tmp/mc.out")" >&2; exit 1; }
	fi
	awk -F'avg=' 'NF == 2 { v = $2 + 0; x[++n] = v; s += v; if (n == 1 || v < b) b = v }
		END {
			if (!n) exit 1
			for (i = 2; i <= n; i++)	# insertion sort: a few samples
				for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
			printf "%s %s %s\n", b, s / n, (n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2)
		}' "$tmp/mc.out" ||
		{ echo "multichase $1: no samples in its output" >&2; exit 1; }
}

cases=${CASES:-4k thp 1g tlb}
printf '# pagehop %s; multichase from %s; %d pairs of %d samples; size %s\n' "$pagehop" "$MULTICHASE_SRC" \
	"$pairs" "$samples" "$size"
printf '%-5s %8s %8s %7s %-13s %-7s %9s %9s %7s %-13s %-7s %9s %7s %-13s %s\n' case ph_min mc_best ratio \
	ratio_ci95 sign_p ph_median mc_avg ratio ratio_ci95 sign_p mc_median ratio ratio_ci95 sign_p
for c in $cases; do
	if [ "$c" = 1g ] && [ ! -e "$pool1g" ]; then
		echo "1g: skipped, this host has no 1 GiB pages" >&2
		continue
	fi
	: >"$tmp/pair"
	for ((p = 0; p < pairs; p++)); do
		if ((p % 2 == 0)); then a=$(ph "$c") b=$(mcrun "$c"); else b=$(mcrun "$c") a=$(ph "$c"); fi
		echo "$a $b" >>"$tmp/pair"
		printf '  %s pair %d of %d: pagehop min/median %s, multichase best/avg/median %s\n' "$c" $((p + 1)) \
			"$pairs" "$a" "$b" >&2
	done
	awk '{ printf "%.4f\n", $1 / $3 }' "$tmp/pair" >"$tmp/r1"
	awk '{ printf "%.4f\n", $2 / $4 }' "$tmp/pair" >"$tmp/r2"
	awk '{ printf "%.4f\n", $2 / $5 }' "$tmp/pair" >"$tmp/r3"
	printf '%-5s %8.2f %8.2f %7.3f %-13s %-7s %9.2f %9.2f %7.3f %-13s %-7s %9.2f %7.3f %-13s %s\n' "$c" \
		"$(awk '{ print $1 }' "$tmp/pair" | median)" "$(awk '{ print $3 }' "$tmp/pair" | median)" \
		"$(median <"$tmp/r1")" "$(ci95 <"$tmp/r1")" "$(sign_p "$(awk '$1 < 1' "$tmp/r1" | wc -l)" "$pairs")" \
		"$(awk '{ print $2 }' "$tmp/pair" | median)" "$(awk '{ print $4 }' "$tmp/pair" | median)" \
		"$(median <"$tmp/r2")" "$(ci95 <"$tmp/r2")" "$(sign_p "$(awk '$1 < 1' "$tmp/r2" | wc -l)" "$pairs")" \
		"$(awk '{ print $5 }' "$tmp/pair" | median)" \
		"$(median <"$tmp/r3")" "$(ci95 <"$tmp/r3")" "$(sign_p "$(awk '$1 < 1' "$tmp/r3" | wc -l)" "$pairs")"
done
