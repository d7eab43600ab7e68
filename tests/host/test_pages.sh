# SPDX-License-Identifier: GPL-2.0-only
# test_pages.sh - "pagehop pages" with a short time budget over 4K, 2M and 1G
# (hugepages reserved by the command with --reserve; skipped with the reason
# if they cannot be had): rows per page size and working set, knees, ratios,
# and at 1 GiB the 4K random chase slower than the 2M one beyond the CIs (an
# independent tool measured about 300 ns against 230 ns on this host).
. "$(dirname "$0")/lib.sh"

# --help lists only what pages takes, each with the default it uses: the
# defaults are read from --help and compared with what a run reports.
"$PAGEHOP" pages --help >"$TMP/help" || fail "pages --help"
for opt in --size --page-size --backend --interleave --cpunodebind --threads; do
	grep -qE -- "(^| )$opt( |$)" "$TMP/help" && fail "pages --help lists $opt, which pages refuses" ||
		pass "pages --help does not list $opt"
done
# default_of OPT: the "(default X)" of OPT in the help, its lines joined.
default_of() { tr '\n' ' ' <"$TMP/help" | sed 's/,  */,/g' | sed -n "s/.*  $1 [^ ]* [^(]*(default \([^)]*\)).*/\1/p"; }
expect "pages --help: --time default" "$(default_of --time)" 0.5
"$PAGEHOP" pages --page-sizes 4k --max 16K --format json >"$TMP/d.json" 2>"$TMP/err" || fail "pages with the defaults: $(cat "$TMP/err")"
expect "--time default is the budget used" "$(jq -r .run.time_budget_s "$TMP/d.json")" "$(default_of --time)"
expect "--ci default is the target used" "$(jq -r .run.ci_target_pct "$TMP/d.json")" "$(default_of --ci)"
expect "--seed default is the seed used" "$(jq -r .pages_method.seed "$TMP/d.json")" "$(default_of --seed)"
expect "--min default is the smallest working set" "$(jq -r '.pages[0].ws_KiB' "$TMP/d.json")K" "$(default_of --min)"

if ! "$PAGEHOP" pages --page-sizes 4k,2m,1g --min 1G --max 1G --time 2 --reserve --format json \
	--save "$TMP/saved.json" >"$TMP/p.json" 2>"$TMP/err"; then
	# A failure above is not hidden by the skip.
	grep -q 'cannot\|no free\|not enough' "$TMP/err" && [ $_failed -eq 0 ] &&
		skip_test "hugepages cannot be had: $(cat "$TMP/err")"
	fail "pages: $(cat "$TMP/err")"
	finish
fi
expect "--save is the same JSON" "$(cmp -s "$TMP/p.json" "$TMP/saved.json" && echo same)" same
for ps in 4K 2M; do
	expect "a 1 GiB row for $ps" "$(jq -r "[.pages[] | select(.page_size == \"$ps\" and .ws_KiB == 1048576)] | length" "$TMP/p.json")" 1
done
r4=$(jq -r '.pages[] | select(.page_size == "4K") | "\(.rnd_lat_ns) \(.rnd_ci_lo_ns)"' "$TMP/p.json")
r2=$(jq -r '.pages[] | select(.page_size == "2M") | "\(.rnd_lat_ns) \(.rnd_ci_hi_ns)"' "$TMP/p.json")
set -- $r4 $r2
awk -v a="$2" -v b="$4" 'BEGIN { exit !(a > b) }' &&
	pass "1 GiB random: 4K $1 ns (CI low $2) slower than 2M $3 ns (CI high $4)" ||
	fail "1 GiB random: 4K $1 ns (CI low $2) not above 2M $3 ns (CI high $4)"
expect "ratio row 2M/4K at 1 GiB" "$(jq -r '[.ratios[] | select(.pages == "2M/4K" and .ws_KiB == 1048576)] | length' "$TMP/p.json")" 1
jq -e '[.ratios[] | select(.pages == "2M/4K")][0].lat_random > 1' "$TMP/p.json" >/dev/null &&
	pass "2M/4K random latency speed-up above 1" || fail "ratio: $(jq -c .ratios "$TMP/p.json")"
expect "pools put back" "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" 0

# A short sweep: rows for each working set, a knee row per page size, a plot.
"$PAGEHOP" pages --page-sizes 4k --min 16K --max 64M --time 0.1 --ci 50 --format json --plot "$TMP/p.svg" \
	>"$TMP/s.json" 2>"$TMP/err" || fail "sweep: $(cat "$TMP/err")"
expect "13 working sets, 16K to 64M" "$(jq -r '[.pages[].ws_KiB] | length' "$TMP/s.json")" 13
expect "knees row" "$(jq -r '.knees[0].page_size' "$TMP/s.json")" 4K
jq -e '.knees[0].summary | test("^4K: ")' "$TMP/s.json" >/dev/null && pass "knee summary: $(jq -r '.knees[0].summary' "$TMP/s.json")" ||
	fail "knee summary"
if command -v gnuplot >/dev/null; then
	grep -q '<svg' "$TMP/p.svg" && pass "--plot wrote an SVG" || fail "--plot"
fi
usage_error "--page-size belongs to other commands" pages --page-size 2m
usage_error "--page-sizes thp" pages --page-sizes thp
usage_error "--min not a power of two" pages --min 3K
usage_error "--max below --min" pages --min 1M --max 64K
usage_error "--plot extension" pages --plot out.pdf
finish
