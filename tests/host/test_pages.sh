# SPDX-License-Identifier: GPL-2.0-only
# test_pages.sh - "pagehop pages" with a short time budget over 4K, 2M and 1G
# (hugepages reserved by the command with --reserve; skipped with the reason
# if they cannot be had): rows per page size and working set, the effects
# separated, knees attributed, anomalies, ratios,
# --same-frames=on refused without the module, auto falling back and saying so,
# the default page sizes (THP where it can be had), what is compared said
# first, and no categorical knee where its figures missed their CI.
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

# The default page sizes: 4K, 2M, 1G and, where THP is always or madvise
# (read here from sysfs), THP; so on a stock machine with THP the
# translation and ratio tables are filled.  A short run that changes only
# the working sets and the time (the full default sweep takes minutes).
"$PAGEHOP" pages --max 64K --time 0.05 --ci 50 --format json >"$TMP/def.json" 2>"$TMP/err" ||
	fail "pages at the default page sizes: $(cat "$TMP/err")"
if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	expect "the default sweeps THP beside 4K" "$(jq -r '[.pages[].page_size] | unique | map(select(. == "4K" or . == "THP")) | join(",")' "$TMP/def.json")" 4K,THP
	expect "the default fills the ratio table" "$(jq -r '[.ratios[] | select(.pages | endswith("/4K"))] | length > 0' "$TMP/def.json")" true
	# Each speed-up has its bootstrap interval where both figures have the
	# blocks for one; the value lies in it, and "no effect shown" is said
	# exactly where it holds 1 (redone here from ci_lo and ci_hi).
	expect "speed-ups inside their CIs" \
		"$(jq -r '[.ratios[] | select(.lat_random_ci_lo != null and (.lat_random < .lat_random_ci_lo or .lat_random > .lat_random_ci_hi))] | length' "$TMP/def.json")" 0
	expect "no effect shown exactly where the CI holds 1" \
		"$(jq -r '[.ratios[] | select(.lat_random_ci_lo != null and ((.lat_random_ci_lo <= 1 and .lat_random_ci_hi >= 1) != (.lat_random_shown == "no effect shown")))] | length' "$TMP/def.json")" 0
	expect "the default fills the translation table" "$(jq -r '[.translation[]] | length > 0' "$TMP/def.json")" true
	case "$(jq -r .pages_compared.compared "$TMP/def.json")" in
	"translation: 4K"*) pass "first lines: $(jq -r .pages_compared.compared "$TMP/def.json")" ;;
	*) fail "pages_compared: $(jq -c .pages_compared "$TMP/def.json")" ;;
	esac
	expect "pages_compared is the first thing said, after the provenance" \
		"$(jq -r '[keys_unsorted[] | select(. != "provenance" and . != "command")][0]' "$TMP/def.json")" pages_compared
fi
# Nothing larger than 4K: the first lines of the table say so, and what to
# do; the locality figures say they hold translation.
"$PAGEHOP" pages --page-sizes 4k --max 32K --time 0.05 --ci 50 --verbose >"$TMP/4k.txt" 2>"$TMP/err" || fail "4k only: $(cat "$TMP/err")"
head -5 "$TMP/4k.txt" | grep -q "^  compared  *nothing: no page size larger than 4K was measured" &&
	head -5 "$TMP/4k.txt" | grep -q "^  to_compare  *add thp to --page-sizes\|^  to_compare  *enable THP" &&
	pass "4K only: the first lines say nothing is compared, and what to do" ||
	fail "4K only, first lines: $(head -6 "$TMP/4k.txt")"
grep -q "^  cache_locality  *median random minus median TLB-local latency on 4K.*cache locality and translation together" "$TMP/4k.txt" &&
	pass "4K only: the locality definition says it holds translation" ||
	fail "4K only, locality definition: $(grep cache_locality "$TMP/4k.txt")"
grep -q "where the TLB does not miss" "$TMP/4k.txt" && fail "4K only: says the TLB does not miss" ||
	pass "4K only: nowhere says the TLB does not miss"

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
# Whether 2M pages are faster than 4K here is a measurement of this shared
# host, not a property of the code: at 1 GiB random its swings (and this
# CPU's TLB reach) left 4K within 2M's CI in clean-clone runs.  The test
# checks what the code computes: the 2M/4K speed-up is the 4K row's median
# over the 2M row's, redone here from the rows.
r4=$(jq -r '.pages[] | select(.page_size == "4K") | .rnd_lat_ns' "$TMP/p.json")
r2=$(jq -r '.pages[] | select(.page_size == "2M") | .rnd_lat_ns' "$TMP/p.json")
expect "ratio row 2M/4K at 1 GiB" "$(jq -r '[.ratios[] | select(.pages == "2M/4K" and .ws_KiB == 1048576)] | length' "$TMP/p.json")" 1
lr=$(jq -r '[.ratios[] | select(.pages == "2M/4K")][0].lat_random' "$TMP/p.json")
awk -v a="$r4" -v b="$r2" -v r="$lr" 'BEGIN { d = a / b - r; exit !(b > 0 && d < 0.0015 && d > -0.0015) }' &&
	pass "2M/4K random speed-up $lr is 4K $r4 ns / 2M $r2 ns" ||
	fail "2M/4K random speed-up $lr, but 4K $r4 ns / 2M $r2 ns is $(awk -v a="$r4" -v b="$r2" 'BEGIN { print a / b }')"
expect "pools put back" "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" 0

# A short sweep: rows for each working set, the two effects separated
# (translation: 4K against the largest page; cache locality: random against
# TLB-local on the largest page), a knee row for each, a plot.  THP is a
# page size of --page-sizes; where THP is off, 4K alone is the largest page.
if grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then sizes=4k large=4K
else sizes=4k,thp large=THP; fi
"$PAGEHOP" pages --page-sizes $sizes --min 16K --max 16M --time 0.1 --ci 50 --format json --plot "$TMP/p.svg" \
	>"$TMP/s.json" 2>"$TMP/err" || fail "sweep: $(cat "$TMP/err")"
expect "11 working sets, 16K to 16M, for 4K" "$(jq -r '[.pages[] | select(.page_size == "4K")] | length' "$TMP/s.json")" 11
expect "11 working sets for $large" "$(jq -r "[.pages[] | select(.page_size == \"$large\")] | length" "$TMP/s.json")" 11
expect "a cache-locality knee row on $large" "$(jq -r '[.knees[] | select(.effect == "cache_locality")][0].pages' "$TMP/s.json")" $large
expect "11 locality rows on $large" "$(jq -r "[.locality[] | select(.pages == \"$large\")] | length" "$TMP/s.json")" 11
# The locality cost is the largest page's random minus TLB-local median, redone from the pages rows.
ws=4096
a=$(jq -r ".pages[] | select(.page_size == \"$large\" and .ws_KiB == $ws) | .rnd_lat_ns" "$TMP/s.json")
b=$(jq -r ".pages[] | select(.page_size == \"$large\" and .ws_KiB == $ws) | .tlb_lat_ns" "$TMP/s.json")
c=$(jq -r ".locality[] | select(.ws_KiB == $ws) | .cost_ns" "$TMP/s.json")
awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { d = a - b - c; exit !(d < 0.0101 && d > -0.0101) }' &&
	pass "locality cost at 4 MiB $c ns is random $a - TLB-local $b" || fail "locality cost $c, but $a - $b"
if [ $large = THP ]; then
	expect "a translation knee row 4K vs THP" "$(jq -r '[.knees[] | select(.effect == "translation")][0].pages' "$TMP/s.json")" "4K vs THP"
	expect "translation rows say the frames differ" \
		"$(jq -r '[.translation[] | select(.frames | test("^differ"))] | length' "$TMP/s.json")" 11
	a=$(jq -r ".pages[] | select(.page_size == \"4K\" and .ws_KiB == $ws) | .rnd_lat_ns" "$TMP/s.json")
	b=$(jq -r ".pages[] | select(.page_size == \"THP\" and .ws_KiB == $ws) | .rnd_lat_ns" "$TMP/s.json")
	c=$(jq -r ".translation[] | select(.ws_KiB == $ws) | .cost_ns" "$TMP/s.json")
	awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { d = a - b - c; exit !(d < 0.0101 && d > -0.0101) }' &&
		pass "translation cost at 4 MiB $c ns is 4K $a - THP $b" || fail "translation cost $c, but $a - $b"
	jq -e '[.pages[] | select(.page_size == "THP")] | all(.verified)' "$TMP/s.json" >/dev/null &&
		pass "THP rows verified" || fail "THP rows not verified"
fi
# Every knee is attributed to a TLB, a cache, or said to be unexplained, or
# not resolved; never left blank.  A categorical word only where resolved:
# an unresolved row names no knee, no cause and no "no rise"; and "no rise"
# rests on every figure, so it is said only where every row of its effect's
# table met its CI (read from that table, a second path).
expect "knees attributed" "$(jq -r '[.knees[] | select(.attributed | test("^(tlb|cache|unexplained|none|not_resolved)$") | not)] | length' "$TMP/s.json")" 0
expect "unresolved knees say so, and nothing categorical" \
	"$(jq -r '[.knees[] | select((.resolved | not) and ((.summary | test("not resolved at this noise") | not) or (.summary | test("knee:|no rise|unexplained")) or .knee_above_KiB != null or .attributed != "not_resolved"))] | length' "$TMP/s.json")" 0
for eff in translation:translation cache_locality:locality; do
	tab=${eff#*:} eff=${eff%%:*}
	unmet=$(jq -r --arg t "$tab" '[.[$t][] | select(.ci_met | not)] | length' "$TMP/s.json")
	norise=$(jq -r --arg e "$eff" '[.knees[] | select(.effect == $e and (.summary | test("no rise")))] | length' "$TMP/s.json")
	[ "$unmet" -gt 0 ] && [ "$norise" -gt 0 ] && fail "$eff: 'no rise' though $unmet of its figures missed their CI" ||
		pass "$eff: $unmet figures missed their CI; 'no rise' said $norise times"
done
# Under a hypervisor (the flag in /proc/cpuinfo, a second path to CPUID's bit) the note is there.
if grep -qw hypervisor /proc/cpuinfo; then
	jq -e '.anomalies[] | select(.figure == "every figure") | .likely_reason | test("backing page size and nested paging")' \
		"$TMP/s.json" >/dev/null && pass "hypervisor note: $(jq -r '.anomalies[0].likely_reason' "$TMP/s.json")" ||
		fail "no hypervisor note under a hypervisor"
else
	expect "no hypervisor note on bare metal" "$(jq -r '[.anomalies[] | select(.figure == "every figure")] | length' "$TMP/s.json")" 0
fi
# Counters: where the kernel has no CPU PMU (the sysfs directory, read here
# directly), one line says so and the rows have no counter columns.
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	jq -e '[.notes[] | select(test("^counters: none, no CPU PMU"))] | length == 1' "$TMP/s.json" >/dev/null &&
		pass "counters line: $(jq -r '.notes[] | select(startswith("counters"))' "$TMP/s.json")" ||
		fail "no 'counters: none, no CPU PMU' line: $(jq -c .notes "$TMP/s.json")"
	expect "no counter columns without a PMU" "$(jq -r '[.pages[] | keys[] | select(test("per_load"))] | length' "$TMP/s.json")" 0
else
	jq -e '[.notes[] | select(startswith("counters: "))] | length == 1' "$TMP/s.json" >/dev/null &&
		pass "counters line: $(jq -r '.notes[] | select(startswith("counters"))' "$TMP/s.json")" || fail "no counters line"
fi
if command -v gnuplot >/dev/null; then
	grep -q '<svg' "$TMP/p.svg" && pass "--plot wrote an SVG" || fail "--plot"
fi
usage_error "--page-size belongs to other commands" pages --page-size 2m
usage_error "--page-sizes 3m" pages --page-sizes 3m
usage_error "--min not a power of two" pages --min 3K
usage_error "--max below --min" pages --min 1M --max 64K
usage_error "--plot extension" pages --plot out.pdf
usage_error "--same-frames with thp" pages --same-frames --thp
usage_error "--same-frames=on with thp" pages --same-frames=on --page-sizes 4k,thp
usage_error "--same-frames=maybe" pages --same-frames=maybe
usage_error "--same-frames takes its value after =" pages --same-frames on
# --same-frames=on (and the bare option) needs pagehop.ko (guests test it
# with the module): without it, exit 4 (not supported here), one line
# saying why, nothing on stdout.  The default, auto, falls back to one
# allocation per page size, and every output says that the frames differ
# and why: the JSON's pages_method, each row, and the table's text.
if [ ! -e /dev/pagehop ]; then
	for on in --same-frames --same-frames=on; do
		"$PAGEHOP" pages $on --max 64K >"$TMP/sf.out" 2>"$TMP/sf.err"
		expect "$on without the module: exit 4" "$?" 4
		expect "$on without the module: nothing on stdout" "$(wc -c <"$TMP/sf.out")" 0
		grep -qx "pagehop pages: --same-frames: needs pagehop.ko.*not loaded)" "$TMP/sf.err" &&
			pass "$on says why: $(cat "$TMP/sf.err")" ||
			fail "$on without the module said: $(cat "$TMP/sf.err")"
	done
	short="--page-sizes 4k --max 32K --time 0.05 --ci 50"
	"$PAGEHOP" pages $short --format json >"$TMP/auto.json" 2>"$TMP/err" || fail "auto: $(cat "$TMP/err")"
	expect "auto is the default" "$(jq -r .pages_method.same_frames "$TMP/auto.json")" auto
	expect "auto without the module: frames differ" "$(jq -r .pages_method.frames "$TMP/auto.json")" differ
	why=$(jq -r .pages_method.frames_why "$TMP/auto.json")
	case "$why" in
	*pagehop.ko*"not loaded"*) pass "auto says why same frames were not used: $why" ;;
	*) fail "auto's frames_why: '$why'" ;;
	esac
	case "$(jq -r .pages_method.held_fixed "$TMP/auto.json")" in
	*"physical pages differ"*"$why"*) pass "held_fixed says the physical pages differ, and why" ;;
	*) fail "held_fixed: $(jq -r .pages_method.held_fixed "$TMP/auto.json")" ;;
	esac
	expect "every row says its frames differ" \
		"$(jq -r '[.pages[] | select(.frames == "differ")] | length' "$TMP/auto.json")" \
		"$(jq -r '.pages | length' "$TMP/auto.json")"
	expect "nothing said on stderr for auto's fallback" "$(cat "$TMP/err")" ""
	"$PAGEHOP" pages $short --verbose >"$TMP/auto.txt" 2>"$TMP/err" || fail "auto, table: $(cat "$TMP/err")"
	grep -q "^note: frames: the physical pages differ between page sizes.*$why" "$TMP/auto.txt" &&
		pass "the table says it: $(grep '^note: frames' "$TMP/auto.txt")" ||
		fail "no frames note in the table: $(grep -i frames "$TMP/auto.txt")"
	"$PAGEHOP" pages $short --same-frames=off --format csv >"$TMP/off.csv" 2>"$TMP/err" ||
		fail "off: $(cat "$TMP/err")"
	grep -q "frames_why.*--same-frames=off" "$TMP/off.csv" &&
		pass "--same-frames=off: the CSV says the frames differ and why" ||
		fail "--same-frames=off, CSV: $(grep -i frames "$TMP/off.csv")"
fi
finish
