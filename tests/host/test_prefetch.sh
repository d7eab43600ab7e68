# SPDX-License-Identifier: GPL-2.0-only
# test_prefetch.sh - "pagehop prefetch" on this host: without pagehop.ko it
# says why in one line and runs the pattern study alone, calls nothing
# "worth" and says that the prefetchers' share needs control; every ratio
# has its CI; at 1 GiB the sequential chase is far below the random one.
. "$(dirname "$0")/lib.sh"

# --help lists only what prefetch takes, each with the default it uses: the
# defaults are read from --help and compared with what a run reports.
"$PAGEHOP" prefetch --help >"$TMP/help" || fail "prefetch --help"
for opt in --threads --interleave --cpunodebind; do
	grep -qE -- "(^| )$opt( |$)" "$TMP/help" && fail "prefetch --help lists $opt, which prefetch refuses" ||
		pass "prefetch --help does not list $opt"
done
# default_of OPT: the "(default X)" of OPT in the help, its lines joined.
default_of() { tr '\n' ' ' <"$TMP/help" | sed 's/,  */,/g' | sed -n "s/.*  $1 [^ ]* [^(]*(default \([^)]*\)).*/\1/p"; }
"$PAGEHOP" prefetch --size 64M --time 0.05 --format json >"$TMP/d.json" 2>"$TMP/err" ||
	fail "prefetch with the default patterns: $(cat "$TMP/err")"
# The patterns of the first prefetcher state (the only one without control).
expect "--patterns default is the patterns measured" \
	"$(jq -r '.latency as $l | [$l[] | select(.prefetchers_off == $l[0].prefetchers_off) | .pattern] | join(",")' "$TMP/d.json")" \
	"$(default_of --patterns)"
expect "--ci default is the target used" "$(jq -r .run.ci_target_pct "$TMP/d.json")" "$(default_of --ci)"
"$PAGEHOP" prefetch --size 64M --ci 50 --patterns seq --no-control --format json >"$TMP/d.json" 2>"$TMP/err" ||
	fail "prefetch with the default time: $(cat "$TMP/err")"
expect "--time default is the budget used" "$(jq -r .run.time_budget_s "$TMP/d.json")" "$(default_of --time)"

"$PAGEHOP" prefetch --size 1G --time 1 --patterns seq,stride:1K,random --format json >"$TMP/p.json" 2>"$TMP/err" ||
	fail "prefetch: $(cat "$TMP/err")"
if [ ! -e /dev/pagehop ]; then
	expect "one line on stderr says why there is no control" "$(grep -c 'no prefetcher control' "$TMP/err")" 1
	expect "rows say the prefetchers were not controllable" \
		"$(jq -r '[.latency[].prefetchers_off] | unique | join(",")' "$TMP/p.json")" "as found (not controllable)"
fi
seq=$(jq -r '.latency[] | select(.pattern == "seq") | .lat_ns' "$TMP/p.json")
rnd=$(jq -r '.latency[] | select(.pattern == "random") | .lat_ns' "$TMP/p.json")
awk -v s="$seq" -v r="$rnd" 'BEGIN { exit !(s * 5 < r) }' &&
	pass "1 GiB: seq $seq ns well below random $rnd ns" || fail "seq $seq ns vs random $rnd ns"
b=$(jq -r '.ratios[] | select(.ratio == "random_over_seq") | .value' "$TMP/p.json")
# The ratio comes from the unrounded medians: equal to the rounded ratio within 1%.
awk -v b="$b" -v s="$seq" -v r="$rnd" 'BEGIN { d = b / (r / s) - 1; exit !(d < 0.01 && d > -0.01) }' &&
	pass "random_over_seq $b = random / seq" || fail "random_over_seq $b vs $rnd / $seq"
# Every ratio has its interval, the value inside it, and "no effect shown"
# exactly where the interval holds 1 (redone here from ci_lo and ci_hi).
# A median has no interval below 6 blocks, and nor has a ratio of one: a
# row without a CI must say so and rest on such a figure (the samples read
# from the latency and bandwidth tables); on this run's settings every
# figure has more, unless the host is very busy.
few=$(jq -r '[(.latency[], .bandwidth[]) | select(.samples < 6)] | length' "$TMP/p.json")
if [ "$few" -eq 0 ]; then
	expect "every ratio has ci_lo and ci_hi" "$(jq -r '[.ratios[] | select(.ci_lo == null or .ci_hi == null)] | length' "$TMP/p.json")" 0
else
	expect "a ratio without a CI says why" \
		"$(jq -r '[.ratios[] | select((.ci_lo == null) and .shown != "no CI (too few samples)")] | length' "$TMP/p.json")" 0
fi
expect "ratios: random_over_seq and swpf_gain" "$(jq -r '[.ratios[].ratio] | join(",")' "$TMP/p.json")" random_over_seq,swpf_gain
expect "each value inside its CI" "$(jq -r '[.ratios[] | select(.ci_lo != null and (.value < .ci_lo or .value > .ci_hi))] | length' "$TMP/p.json")" 0
expect "no effect shown exactly where the CI holds 1" \
	"$(jq -r '[.ratios[] | select(.ci_lo != null and ((.ci_lo <= 1 and .ci_hi >= 1) != (.shown == "no effect shown")))] | length' "$TMP/p.json")" 0
if [ ! -e /dev/pagehop ]; then
	"$PAGEHOP" prefetch --size 64M --time 0.05 --ci 50 --patterns seq,random --verbose >"$TMP/p.txt" 2>"$TMP/err.txt" ||
		fail "prefetch, table: $(cat "$TMP/err.txt")"
	for f in "$TMP/p.json" "$TMP/p.txt"; do
		expect "without control, nothing is called worth ($(basename "$f"))" "$(grep -ci 'worth' "$f")" 0
	done
	grep -q "^note: the prefetchers' share of these figures is not measured: it needs prefetcher control (pagehop.ko" "$TMP/p.txt" &&
		pass "the table says the prefetchers' share needs control" ||
		fail "no note on the prefetchers' share: $(grep '^note' "$TMP/p.txt")"
	expect "the JSON says it too" "$(jq -r '[.notes[] | select(startswith("the prefetchers'"'"' share"))] | length' "$TMP/p.json")" 1
fi
expect "read and read_swpf" "$(jq -r '[.bandwidth[].kernel] | join(",")' "$TMP/p.json")" "read,read_swpf"
expect "arrays valid" "$(jq -r '[.bandwidth[].valid] | all' "$TMP/p.json")" true
usage_error "threads" prefetch --threads 2
usage_error "bad pattern" prefetch --patterns zigzag
usage_error "two CPUs" prefetch --physcpubind 0,1
finish
