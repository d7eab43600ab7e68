# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/lib.sh - what the benchmark scripts share: the tools and the page
# size (PAGE_SIZE, default 4k; pagehop gets --reserve for huge pages), one
# run of each tool reduced to GB/s, and the statistics over pairs.  Sourced,
# not run, after the caller has set $root; exits 4 if a tool is missing
# (jq always; likwid-bench unless PH_BENCH_NO_LIKWID is set).  A pagehop
# figure that cannot be read stops the script: without jq the scripts once
# read 0 GB/s and printed a ratio of 0.000 without a word.

# shellcheck disable=SC2154 # root: set by the caller
pagehop=$root/build/pagehop
page=${PAGE_SIZE:-4k}
reserve=
[ "$page" = 4k ] || reserve=--reserve
[ -n "${PH_BENCH_NO_LIKWID:-}" ] || command -v likwid-bench >/dev/null ||
	{ echo "likwid-bench missing: bash scripts/install-deps.sh bench" >&2; exit 4; }
command -v jq >/dev/null || { echo "jq missing: bash scripts/install-deps.sh bench" >&2; exit 4; }
[ -x "$pagehop" ] || { echo "build/pagehop missing: make" >&2; exit 4; }

# run_pagehop KERNEL ISA THREADS NT -> GB/s (10^9); ISA "default" runs
# without --isa: what a user gets.  If pagehop fails or its JSON has no
# figure, says so on stderr and returns 1: the caller, under set -e, stops
# (assign its output on a line of its own).
run_pagehop() {
	local out err v isa_opt=(--isa "$2")
	[ "$2" != default ] || isa_opt=()
	err=$(mktemp)
	if ! out=$("$pagehop" stream --kernel "$1" "${isa_opt[@]}" ${4:+"$4"} --threads "$3" --size 1G \
		--time 1 --page-size "$page" ${reserve:+"$reserve"} --format json 2>"$err"); then
		echo "pagehop stream --kernel $1 --isa $2 --threads $3 $4 failed: $(tail -n 1 "$err")" >&2
		rm -f "$err"
		return 1
	fi
	rm -f "$err"
	if ! v=$(jq -er '.stream[0].bw_GBps | numbers' <<<"$out"); then
		echo "pagehop stream --kernel $1 --isa $2: no bw_GBps in its JSON" >&2
		return 1
	fi
	echo "$v"
}

# run_likwid KERNEL THREADS -> GB/s (likwid's MByte/s is 10^6 bytes/s), or
# 0 with a warning on stderr if it failed (likwid 5.2.2's non-temporal
# stream kernels crash at times; duel.sh leaves such pairs out).  -i 30: a
# fixed 30 passes, skipping likwid's calibration run.
run_likwid() {
	local v
	v=$({ likwid-bench -i 30 -t "$1" -w "S0:1GB:$2" 2>/dev/null || true; } |
		awk '/^MByte\/s:/ { v = $2 / 1000 } END { print v + 0 }')
	[ "$v" != 0 ] || echo "likwid-bench -t $1 -w S0:1GB:$2: no MByte/s figure (it failed): counted as 0" >&2
	echo "$v"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# ci95 < values -> "LO-HI", the distribution-free 95% confidence interval of
# their median (ranks j and n+1-j with P(Bin(n, 1/2) < j) <= 0.025, as
# pagehop's own statistics), or "-" for fewer than 6 values, which have none.
ci95() {
	sort -g | awk '{ v[NR] = $1 }
	END {
		n = NR; p = 2 ^ -n; cdf = 0; j = 0
		for (i = 0; i < n; i++) {
			cdf += p
			if (cdf > 0.025) break
			j = i + 1; p = p * (n - i) / (i + 1)
		}
		if (j < 1) print "-"; else printf "%.3f-%.3f\n", v[j], v[n + 1 - j]
	}'
}

# sign_p WINS N -> the two-sided p-value of the sign test: the chance that
# a fair coin gives a split of N at least as uneven as WINS : N - WINS.
sign_p() {
	awk -v w="$1" -v n="$2" 'BEGIN {
		k = (w < n - w) ? w : n - w; p = 2 ^ -n; cdf = 0
		for (i = 0; i <= k; i++) { cdf += p; p = p * (n - i) / (i + 1) }
		cdf *= 2; printf "%.3g\n", (cdf > 1 ? 1 : cdf)
	}'
}

# pair_summary FILE SIZE NAME1 NAME2: FILE holds one line "V1 V2" per pair
# (interleaved runs of two sides).  Prints a header and a row: the pairs,
# SIZE, the medians of V1 and V2, the median per-pair ratio V1/V2 with its
# ci95 and the sign test's p (pairs with V1 > V2), and leaves the interval
# in $pair_ci for the caller's verdict.
pair_summary() {
	local f=$1 n wins
	awk '{ printf "%.4f\n", $1 / $2 }' "$f" >"$f.ratio"
	n=$(wc -l <"$f")
	pair_ci=$(ci95 <"$f.ratio")
	wins=$(awk '$1 > 1' "$f.ratio" | wc -l)
	printf '%-6s %-6s %10s %10s %8s %-13s %s\n' pairs size "$3" "$4" ratio ratio_ci95 sign_p
	printf '%-6s %-6s %10.3f %10.3f %8.3f %-13s %s\n' "$n" "$2" \
		"$(awk '{ print $1 }' "$f" | median)" "$(awk '{ print $2 }' "$f" | median)" \
		"$(median <"$f.ratio")" "$pair_ci" "$(sign_p "$wins" "$n")"
}

# multichase_build TMP -> sets mc to a google/multichase built from
# $MULTICHASE_SRC in TMP/mc (never in the tree); exits 4 if MULTICHASE_SRC
# is not set, not a multichase tree, or does not build.
multichase_build() {
	[ -n "${MULTICHASE_SRC:-}" ] ||
		{ echo "MULTICHASE_SRC not set: the path of a google/multichase source tree (multichase is not in Debian)" >&2; exit 4; }
	[ -f "$MULTICHASE_SRC/multichase.c" ] || { echo "MULTICHASE_SRC=$MULTICHASE_SRC: no multichase.c there" >&2; exit 4; }
	cp -r "$MULTICHASE_SRC" "$1/mc"
	make -s -C "$1/mc" multichase >"$1/build.log" 2>&1 ||
		{ echo "multichase does not build: $(tail -n 3 "$1/build.log")" >&2; exit 4; }
	# shellcheck disable=SC2034 # mc: the caller's
	mc=$1/mc/multichase
}

# bench_pairs_open "$@": the [PAIRS] [SIZE] [PAGEHOP] arguments of the
# pair scripts: sets pairs (default 10), size (default 1G) and pagehop
# (the build's unless given), and tmp, a directory removed at exit.
# Exits 2 on a PAIRS that is not a positive count, 4 without the binary.
bench_pairs_open() {
	pairs=${1:-10} size=${2:-1G}
	case $pairs in '' | *[!0-9]* | 0) echo "usage: $0 [PAIRS] [SIZE] [PAGEHOP]" >&2; exit 2 ;; esac
	[ -z "${3:-}" ] || pagehop=$3
	[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # tmp is fixed now
	trap "rm -rf '$tmp'" EXIT
}

# bench_pairs NAME1 CMD1 NAME2 CMD2: $pairs pairs of the figures two
# commands print (a function and its words, split on spaces), the order
# alternating within pairs so that a drift of the shared host favours
# neither; each pair "V1 V2" appended to $tmp/pair, and said on stderr.
# One assignment a line: set -e then stops on a figure that cannot be read.
bench_pairs() {
	local p a b
	for ((p = 0; p < pairs; p++)); do
		if ((p % 2 == 0)); then
			a=$($2)
			b=$($4)
		else
			b=$($4)
			a=$($2)
		fi
		echo "$a $b" >>"$tmp/pair"
		printf '  pair %d of %d: %s %s, %s %s\n' $((p + 1)) "$pairs" "$1" "$a" "$3" "$b" >&2
	done
}
