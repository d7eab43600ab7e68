#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/setup.sh [PAIRS] [SIZES] [OLD_PAGEHOP] - how long a user waits for a
# first latency figure: "pagehop chase --size SIZE --time 0.1" from start to
# exit, setup included (allocation, touch, verification, chain build and
# check), on 4 KiB pages and on 2 MiB pages (--reserve), for each SIZE
# (default "256M 1G 4G").  Interleaved pairs against a peer, the order
# alternating within pairs so that a drift of the shared host favours
# neither:
#   - OLD_PAGEHOP given: that binary (an older pagehop) against this tree's
#     build/pagehop (or $PAGEHOP);
#   - MULTICHASE_SRC set (a google/multichase source tree): multichase built
#     in a temporary directory (never in the tree), one 0.5 s sample of a
#     uniform random chase over SIZE (-m SIZE -T SIZE -s 64 -n 1), against
#     pagehop.  For 2 MiB pages its run includes reserving the hugetlb pool
#     and giving it back, as pagehop --reserve's does.
# Each run is timed by /usr/bin/time: wall seconds and user seconds.  Prints
# per size and page size the medians, the median per-pair ratio
# pagehop/peer of the wall time with its 95% confidence interval and the
# sign test's p-value, and the same for user time.  PAGES overrides the page
# sizes ("4k 2m").  Exit 4 if there is no peer or a tool is missing.
#
# Example: bash bench/setup.sh 5 "256M 1G 4G" /tmp/pagehop-before
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [PAIRS] [SIZES] [OLD_PAGEHOP]" >&2; exit 2; }
pairs=${1:-5} sizes=${2:-256M 1G 4G} old=${3:-}
case $pairs in '' | *[!0-9]* | 0) usage ;; esac
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
pagehop=${PAGEHOP:-$pagehop}
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing (Debian: time)" >&2; exit 4; }
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pool=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages

if [ -n "$old" ]; then
	[ -x "$old" ] || { echo "$old: not an executable" >&2; exit 4; }
	peer=old
elif [ -n "${MULTICHASE_SRC:-}" ]; then
	[ -f "$MULTICHASE_SRC/multichase.c" ] ||
		{ echo "MULTICHASE_SRC=$MULTICHASE_SRC: no multichase.c there" >&2; exit 4; }
	cp -r "$MULTICHASE_SRC" "$tmp/mc"
	make -s -C "$tmp/mc" multichase >"$tmp/build.log" 2>&1 ||
		{ echo "multichase does not build: $(tail -n 3 "$tmp/build.log")" >&2; exit 4; }
	peer=multichase
else
	echo "no peer: give an older pagehop as OLD_PAGEHOP, or MULTICHASE_SRC=<google/multichase source>" >&2
	exit 4
fi

# timed OUT CMD... -> "wall user" seconds; a failed run stops the script.
timed() {
	local out=$1
	shift
	if ! /usr/bin/time -f '%e %U' -o "$tmp/t" "$@" >"$out" 2>"$tmp/err"; then
		echo "failed: $* : $(tail -n 2 "$tmp/err")" >&2
		exit 1
	fi
	cat "$tmp/t"
}

# run_pagehop BIN SIZE PAGE -> "wall user"; checks the figure is there.
run_pagehop() {
	local r res=
	[ "$3" = 4k ] || res=--reserve
	r=$(timed "$tmp/out" "$1" chase --size "$2" --page-size "$3" $res --time 0.1 --format json)
	jq -e '.chase[0].lat_ns | numbers' "$tmp/out" >/dev/null ||
		{ echo "$1 chase --size $2 --page-size $3: no lat_ns" >&2; exit 1; }
	echo "$r"
}

# run_multichase SIZE PAGE -> "wall user"; for 2m, the pool is grown and put back inside the timed run.
run_multichase() {
	local mc=$tmp/mc/multichase bytes pages
	if [ "$2" = 4k ]; then
		timed "$tmp/out" "$mc" -m "$1" -T "$1" -s 64 -n 1
	else
		bytes=$(numfmt --from=iec "$1")
		pages=$((bytes / 2097152 + 1))
		timed "$tmp/out" sh -c "echo $pages >$pool && \"$mc\" -p 2m -m $1 -T $1 -s 64 -n 1; rc=\$?; echo 0 >$pool; exit \$rc"
	fi
	grep -Eq '^[0-9. ]+$' "$tmp/out" || { echo "multichase -m $1: no figure: $(head -c 200 "$tmp/out")" >&2; exit 1; }
}

run_peer() {
	if [ $peer = old ]; then run_pagehop "$old" "$1" "$2"; else run_multichase "$1" "$2"; fi
}

printf '# peer %s; pagehop %s; %d pairs; ratio = pagehop / peer\n' \
	"$([ $peer = old ] && echo "$old" || echo "multichase ($MULTICHASE_SRC)")" "$pagehop" "$pairs"
printf '%-5s %-4s %9s %9s %7s %-13s %-7s %9s %9s %7s %-13s %s\n' size page peer_wall ph_wall ratio \
	ratio_ci95 sign_p peer_user ph_user ratio ratio_ci95 sign_p
for size in $sizes; do
	for page in ${PAGES:-4k 2m}; do
		: >"$tmp/pair"
		for ((p = 0; p < pairs; p++)); do
			if ((p % 2 == 0)); then
				a=$(run_peer "$size" "$page") b=$(run_pagehop "$pagehop" "$size" "$page")
			else
				b=$(run_pagehop "$pagehop" "$size" "$page") a=$(run_peer "$size" "$page")
			fi
			echo "$a $b" >>"$tmp/pair"
			printf '  %s %s pair %d of %d: peer %s, pagehop %s (wall user)\n' "$size" "$page" \
				$((p + 1)) "$pairs" "$a" "$b" >&2
		done
		# Columns: peer wall, peer user, pagehop wall, pagehop user.
		awk '{ printf "%.4f\n", $3 / $1 }' "$tmp/pair" >"$tmp/rw"
		awk '{ printf "%.4f\n", ($2 > 0 ? $4 / $2 : 0) }' "$tmp/pair" >"$tmp/ru"
		printf '%-5s %-4s %9.2f %9.2f %7.3f %-13s %-7s %9.2f %9.2f %7.3f %-13s %s\n' "$size" "$page" \
			"$(awk '{ print $1 }' "$tmp/pair" | median)" "$(awk '{ print $3 }' "$tmp/pair" | median)" \
			"$(median <"$tmp/rw")" "$(ci95 <"$tmp/rw")" \
			"$(sign_p "$(awk '$1 < 1' "$tmp/rw" | wc -l)" "$pairs")" \
			"$(awk '{ print $2 }' "$tmp/pair" | median)" "$(awk '{ print $4 }' "$tmp/pair" | median)" \
			"$(median <"$tmp/ru")" "$(ci95 <"$tmp/ru")" \
			"$(sign_p "$(awk '$1 < 1' "$tmp/ru" | wc -l)" "$pairs")"
	done
done
