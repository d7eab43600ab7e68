#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/contention.sh [PAIRS] [PAGEHOP] - the timing claims of c2c, locks
# and loaded, which the host tests leave out (the host is shared): each
# measured over PAIRS interleaved runs (default 10), reported as the median
# per-run ratio (or difference) with its 95% confidence interval and the
# sign test's p-value.
#
#   locks:  2 threads against 1, per kind: overhead_ns(2) - overhead_ns(1),
#           the order of the two runs alternating between pairs
#   loaded: one loader at delay 0 against idle, within each run (the curve
#           measures both): lat(0) / lat(idle); and the achieved bandwidth
#           at delay 0 against delay 1000: bw(0) / bw(1000)
#   loaded at idle against pagehop chase on the same size, alternating
#   c2c CPUs 0,1 against multichase's pingpong -u -r 0 (best of its 5
#           samples, so against pagehop's lat_min_ns and lat_ns), the order
#           alternating, and how many of pingpong's figures fall inside the
#           95% CI of the c2c run next to it, when MULTICHASE_SRC names a
#           multichase checkout; it is built in a temporary directory,
#           never in the tree.
#
# Exits 1 if a claim's whole interval lies on the wrong side (2 threads
# cheaper than 1; loaded latency below idle; bandwidth falling as the delay
# falls); an interval that straddles is reported, not failed.
#
# Example: MULTICHASE_SRC=~/src/multichase bash bench/contention.sh 10
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [PAIRS] [PAGEHOP]" >&2; exit 2; }
pairs=${1:-10} pagehop_arg=${2:-}
case $pairs in '' | *[!0-9]* | 0) usage ;; esac
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
[ -z "$pagehop_arg" ] || pagehop=$pagehop_arg
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
[ "$(nproc)" -ge 2 ] || { echo "needs two CPUs" >&2; exit 4; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# report NAME FILE WANT: median and CI of the values in FILE; WANT is
# ">1" or ">0": the side the claim says the values lie on.
report() {
	local ci med wins n lo hi
	ci=$(ci95 <"$2") med=$(median <"$2") n=$(wc -l <"$2")
	if [ "$3" = ">1" ]; then wins=$(awk '$1 > 1' "$2" | wc -l); else wins=$(awk '$1 > 0' "$2" | wc -l); fi
	printf '%-36s %10.3f %-23s %s\n' "$1" "$med" "$ci" "$(sign_p "$wins" "$n")"
	[ "$ci" != - ] || return 0
	# "LO-HI", either bound possibly negative: the separator follows a digit.
	read -r lo hi <<<"$(sed 's/\([0-9]\)-/\1 /' <<<"$ci")"
	if [ "$3" = ">1" ] && awk -v h="$hi" 'BEGIN { exit !(h < 1) }'; then bad=1; echo "FAIL: $1 below 1" >&2; fi
	if [ "$3" = ">0" ] && awk -v h="$hi" 'BEGIN { exit !(h < 0) }'; then bad=1; echo "FAIL: $1 below 0" >&2; fi
}

# jqv FILE FILTER: one number from a pagehop JSON, or stop.
jqv() { jq -er "$2 | numbers" "$1" || { echo "no figure '$2' in $1" >&2; exit 1; }; }

locks() { "$pagehop" locks --cpus 0,1 --threads "$1" --time 1 --format json >"$2" ||
	{ echo "pagehop locks --threads $1 failed" >&2; exit 1; }; }
loaded() { "$pagehop" loaded --chaser 0 --loaders 1 --size 256M --loader-size 64M --delays 1000,0 \
	--time 1 --format json >"$1" || { echo "pagehop loaded failed" >&2; exit 1; }; }
chase() { "$pagehop" chase --physcpubind 0 --size 256M --time 1 --format json >"$1" ||
	{ echo "pagehop chase failed" >&2; exit 1; }; }

kinds=$("$pagehop" locks --help | sed -n '/^lock kinds/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
for ((p = 0; p < pairs; p++)); do
	if ((p % 2 == 0)); then locks 1 "$tmp/l1"; locks 2 "$tmp/l2"; else locks 2 "$tmp/l2"; locks 1 "$tmp/l1"; fi
	for k in $kinds; do
		a=$(jqv "$tmp/l1" ".locks[] | select(.kind == \"$k\") | .overhead_ns")
		b=$(jqv "$tmp/l2" ".locks[] | select(.kind == \"$k\") | .overhead_ns")
		echo "$b $a" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/locks_$k"
	done
	if ((p % 2 == 0)); then loaded "$tmp/ld"; chase "$tmp/ch"; else chase "$tmp/ch"; loaded "$tmp/ld"; fi
	idle=$(jqv "$tmp/ld" '.loaded[] | select(.mix == "idle") | .lat_ns')
	full=$(jqv "$tmp/ld" '.loaded[] | select(.delay == 0) | .lat_ns')
	bw0=$(jqv "$tmp/ld" '.loaded[] | select(.delay == 0) | .bw_GBps')
	bw1k=$(jqv "$tmp/ld" '.loaded[] | select(.delay == 1000) | .bw_GBps')
	ch=$(jqv "$tmp/ch" '.chase[0].lat_ns')
	awk -v a="$full" -v b="$idle" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/loaded_lat"
	awk -v a="$bw0" -v b="$bw1k" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/loaded_bw"
	awk -v a="$idle" -v b="$ch" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/idle_chase"
	printf '  run %d of %d: idle %s ns, loaded %s ns, %s / %s GB/s, chase %s ns\n' $((p + 1)) "$pairs" \
		"$idle" "$full" "$bw0" "$bw1k" "$ch" >&2
done

printf '%-36s %10s %-23s %s\n' claim median ci95 sign_p
for k in $kinds; do report "locks $k: ns(2 threads) - ns(1)" "$tmp/locks_$k" ">0"; done
report "loaded: lat(delay 0) / lat(idle)" "$tmp/loaded_lat" ">1"
report "loaded: bw(delay 0) / bw(delay 1000)" "$tmp/loaded_bw" ">1"
# Not a claim: the two should agree (a ratio near 1).
printf '%-36s %10.3f %-23s\n' "loaded idle / chase, same size" "$(median <"$tmp/idle_chase")" "$(ci95 <"$tmp/idle_chase")"

if [ -n "${MULTICHASE_SRC:-}" ]; then
	cp -r "$MULTICHASE_SRC" "$tmp/mc"
	make -C "$tmp/mc" pingpong >/dev/null 2>&1 || { echo "cannot build multichase's pingpong" >&2; exit 4; }
	c2c() { "$pagehop" c2c --cpus 0,1 --time 2 --format json >"$tmp/c2c" ||
		{ echo "pagehop c2c failed" >&2; exit 1; }; }
	pingpong() { mc=$(taskset -c 0,1 "$tmp/mc/pingpong" -u -r 0 | awk '$1 == "0:" { print $2 }'); }
	inside=0
	for ((p = 0; p < pairs; p++)); do
		# Alternate the order, as above: a drift then favours neither.
		if ((p % 2 == 0)); then c2c; pingpong; else pingpong; c2c; fi
		[ -n "$mc" ] || { echo "no figure from pingpong" >&2; exit 1; }
		ph=$(jqv "$tmp/c2c" '.c2c[0].lat_ns') phmin=$(jqv "$tmp/c2c" '.c2c[0].lat_min_ns')
		lo=$(jqv "$tmp/c2c" '.c2c[0].ci_lo_ns') hi=$(jqv "$tmp/c2c" '.c2c[0].ci_hi_ns')
		rt=$(jqv "$tmp/c2c" '.c2c[0].round_trips')
		awk -v a="$ph" -v b="$mc" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/c2c_mc"
		awk -v a="$phmin" -v b="$mc" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/c2cmin_mc"
		! awk -v m="$mc" -v l="$lo" -v h="$hi" 'BEGIN { exit !(m >= l && m <= h) }' || inside=$((inside + 1))
		printf '  c2c %d of %d: pagehop %s ns [%s, %s] (min %s, %s round trips a block), pingpong %s ns\n' \
			$((p + 1)) "$pairs" "$ph" "$lo" "$hi" "$phmin" "$rt" "$mc" >&2
	done
	printf '%-36s %10.3f %-23s\n' "c2c median / pingpong best" "$(median <"$tmp/c2c_mc")" "$(ci95 <"$tmp/c2c_mc")"
	printf '%-36s %10.3f %-23s\n' "c2c min / pingpong best" "$(median <"$tmp/c2cmin_mc")" "$(ci95 <"$tmp/c2cmin_mc")"
	printf '%-36s %10s\n' "pingpong inside c2c's own CI" "$inside/$pairs"
fi
exit $bad
