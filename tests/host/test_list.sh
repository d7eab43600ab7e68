# SPDX-License-Identifier: GPL-2.0-only
# test_list.sh - "pagehop list": the table format fits a terminal (no line
# over 80 columns, none ending in a space), and each loop is said once:
# a variant's row does not repeat its kernel, ISA or store kind in a
# description, and what an op computes is given once per op.  CSV and JSON
# carry the same rows as the table (read here from each rendering).
. "$(dirname "$0")/lib.sh"

"$PAGEHOP" list >"$TMP/t" 2>"$TMP/err" || fail "list: $(cat "$TMP/err")"
"$PAGEHOP" list --format json >"$TMP/j" 2>"$TMP/err" || fail "list --format json: $(cat "$TMP/err")"
"$PAGEHOP" list --format csv >"$TMP/c" 2>"$TMP/err" || fail "list --format csv: $(cat "$TMP/err")"

wide=$(awk 'length($0) > 80 { n++; if (length($0) > m) m = length($0) } END { print n + 0 " lines over 80 columns, the longest " m + 0 }' "$TMP/t")
expect "table: no line over 80 columns" "$wide" "0 lines over 80 columns, the longest 0"
expect "table: no line ends in a space" "$(grep -c ' $' "$TMP/t")" 0

# Every variant, in every rendering: 6 ops x 4 ISAs x {normal, nt}, less read's 4 nt.
expect "json: 44 variants" "$(jq '.stream_kernels | length' "$TMP/j")" 44
expect "table: 44 variant rows" \
	"$(awk '/^bandwidth kernel variants/ {on=1; getline; next} on && /^$/ {on=0} on' "$TMP/t" | wc -l)" 44
expect "csv: 44 variant rows" \
	"$(awk '/^# table: stream_kernels/ {on=1; getline; next} on && /^$|^#/ {on=0} on' "$TMP/c" | wc -l)" 44
# The same variants in table and JSON: kernel, isa, nt and runs_here.
t_rows=$(awk '/^bandwidth kernel variants/ {on=1; getline; next} on && /^$/ {on=0} on {print $1, $2, $3, $7}' "$TMP/t")
j_rows=$(jq -r '.stream_kernels[] | "\(.kernel) \(.isa) \(if .nt then "yes" else "no" end) \(if .runs_here then "yes" else "no" end)"' "$TMP/j")
expect "table and JSON list the same variants" "$t_rows" "$j_rows"

# What each op computes, once: six ops, each description free of the op's name.
expect "json: six ops, each described once" "$(jq -r '[.stream_ops[].kernel] | join(" ")' "$TMP/j")" \
	"copy scale add triad read write"
expect "json: no op's description repeats its name" \
	"$(jq -r '[.stream_ops[] | . as $o | select($o.description | contains($o.kernel))] | length' "$TMP/j")" 0
expect "json: the variants carry no description of their own" \
	"$(jq -r '[.stream_kernels[] | select(has("description"))] | length' "$TMP/j")" 0
grep -Eiq 'scalar\)|sse2,|avx2,|avx-512|non-temporal stores' "$TMP/t" &&
	fail "table repeats an ISA or store kind in a description: $(grep -Ei -m3 'scalar\)|sse2,|avx2,|avx-512|non-temporal stores' "$TMP/t")" ||
	pass "table: no description repeats an ISA or store kind"
expect "json: 5 chase patterns" "$(jq '.chase_patterns | length' "$TMP/j")" 5
finish
