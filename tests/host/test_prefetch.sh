# SPDX-License-Identifier: GPL-2.0-only
# test_prefetch.sh - "pagehop prefetch" on this host: without pagehop.ko it
# says why in one line and runs the pattern study alone; at 1 GiB the
# sequential chase is far below the random one.
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
b=$(jq -r '.benefit[0].prefetch_benefit' "$TMP/p.json")
# The benefit comes from the unrounded medians: equal to the rounded ratio within 1%.
awk -v b="$b" -v s="$seq" -v r="$rnd" 'BEGIN { d = b / (r / s) - 1; exit !(d < 0.01 && d > -0.01) }' &&
	pass "prefetch benefit $b = random / seq" || fail "benefit $b vs $rnd / $seq"
expect "read and read_swpf" "$(jq -r '[.bandwidth[].kernel] | join(",")' "$TMP/p.json")" "read,read_swpf"
expect "arrays valid" "$(jq -r '[.bandwidth[].valid] | all' "$TMP/p.json")" true
usage_error "threads" prefetch --threads 2
usage_error "bad pattern" prefetch --patterns zigzag
usage_error "two CPUs" prefetch --physcpubind 0,1
finish
