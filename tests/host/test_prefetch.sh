# SPDX-License-Identifier: GPL-2.0-only
# test_prefetch.sh - "pagehop prefetch" on this host: without pagehop.ko it
# says why in one line and runs the pattern study alone; at 1 GiB the
# sequential chase is far below the random one.
. "$(dirname "$0")/lib.sh"

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
