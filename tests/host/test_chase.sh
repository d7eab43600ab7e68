# SPDX-License-Identifier: GPL-2.0-only
# test_chase.sh - "pagehop chase" on this host: every backend and page size
# that can be had, the verified page size in the output, sanity bounds, the
# 1 GiB random chase on 4K and 2M pages, a deliberately wrong placement
# caught, usage errors, and Ctrl-C.
. "$(dirname "$0")/lib.sh"

# row FILE FIELD: the first chase row's field.
row() { jq -r ".chase[0].$2" "$1"; }

# The 2M pool as this test found it: --reserve must put it back so.
pool0=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
for ps in 4k thp 2m 1g; do
	size=64M
	[ $ps = 1g ] && size=1G
	if "$PAGEHOP" chase --page-size $ps --size $size --time 0.3 --reserve --format json \
		>"$TMP/c.json" 2>"$TMP/err"; then
		want=$(echo $ps | tr a-z A-Z)
		expect "chase $ps: page size in the row" "$(row "$TMP/c.json" page_size)" "$want"
		expect "chase $ps: verified" "$(row "$TMP/c.json" verified)" true
		expect "chase $ps: buffer read back" "$(jq -r '.buffers[0].verified' "$TMP/c.json")" true
		lat=$(row "$TMP/c.json" lat_ns)
		awk -v l="$lat" 'BEGIN { exit !(l > 1 && l < 100000) }' && pass "chase $ps: $lat ns" ||
			fail "chase $ps: latency $lat out of bounds"
	elif [ $? -eq 4 ] && { [ $ps = 1g ] || [ $ps = thp ]; }; then
		pass "chase $ps: skipped, the machine cannot give it now: $(cat "$TMP/err")"
	else
		fail "chase $ps: $(cat "$TMP/err")"
	fi
done
# --reserve put the pools back.
expect "2M pool restored" "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" "$pool0"

# Every pattern builds, walks and reports.
"$PAGEHOP" chase --size 16M --time 0.2 --pattern random,tlb:64K,page,seq,stride:512 --chains 2 \
	--format json >"$TMP/p.json" 2>"$TMP/err" || fail "patterns: $(cat "$TMP/err")"
expect "five patterns" "$(jq -r '[.chase[].pattern] | join(" ")' "$TMP/p.json")" \
	"random tlb:64K page:4K seq stride:512"
expect "two chains" "$(jq -r '[.chase[].chains] | unique | join(" ")' "$TMP/p.json")" 2

# 1 GiB random on 4K and on 2M pages: each run verified at the page size it
# asked for, and the 4K figure is a memory access (well above 40 ns), not a
# cache hit.  Which page size is faster is a timing claim, and the host is
# shared: bench/pagesize.sh measures it in interleaved pairs.
"$PAGEHOP" chase --size 1G --page-size 4k --time 1 --format json >"$TMP/4k.json" 2>"$TMP/err" ||
	fail "1G 4k: $(cat "$TMP/err")"
expect "1G random 4K: verified at 4K" "$(row "$TMP/4k.json" verified) $(row "$TMP/4k.json" page_size)" "true 4K"
l4=$(row "$TMP/4k.json" lat_ns)
awk -v l="$l4" 'BEGIN { exit !(l > 40) }' && pass "1G random 4K: $l4 ns, a memory access" ||
	fail "1G random 4K: $l4 ns, not above 40 ns"
if "$PAGEHOP" chase --size 1G --page-size 2m --reserve --time 1 --format json >"$TMP/2m.json" 2>"$TMP/err"; then
	expect "1G random 2M: verified at 2M" "$(row "$TMP/2m.json" verified) $(row "$TMP/2m.json" page_size)" "true 2M"
elif [ $? -eq 4 ]; then
	pass "1G random 2M: skipped, the machine cannot give 512 2M pages now: $(cat "$TMP/err")"
else
	fail "1G random 2M: $(cat "$TMP/err")"
fi

# A wrong page size is caught before measuring, and reported: the test build
# (BUILD/test/pagehop) has the hook that backs 4K with THP on purpose.
hooked=$(dirname "$PAGEHOP")/test/pagehop
[ -x "$hooked" ] || fail "no test build $hooked (make all builds it)"
PAGEHOP_FAULT_INJECT=psize "$hooked" chase --size 16M --time 0.2 >"$TMP/o" 2>"$TMP/e"
rc=$?
if [ $rc -eq 1 ] && [ ! -s "$TMP/o" ] && grep -q 'asked 16 MiB of 4K pages on node 0; found pages THP' "$TMP/e"; then
	pass "wrong page size caught: $(head -n1 "$TMP/e")"
else
	fail "wrong page size: exit $rc, $(cat "$TMP/e")"
fi
PAGEHOP_FAULT_INJECT=psize "$hooked" chase --size 16M --time 0.2 --allow-unverified --format json \
	>"$TMP/u.json" 2>/dev/null
expect "--allow-unverified marks the row" "$(row "$TMP/u.json" verified)" false
expect "--allow-unverified shows the page size found" "$(row "$TMP/u.json" page_size)" THP

# --repeats: each figure's runs, the between-run columns recomputed from them.
"$PAGEHOP" chase --size 16M --time 0.3 --pattern random,seq --repeats 3 --format json \
	>"$TMP/rep.json" 2>"$TMP/err" || fail "--repeats 3: $(cat "$TMP/err")"
for p in random seq; do
	expect_repeats "chase $p" "$TMP/rep.json" ".chase[] | select(.pattern == \"$p\")" \
		"[.chase_repeats[] | select(.pattern == \"$p\")]" lat_ns ns 3
done
expect "--repeats 1 (the default): one run, no between-run claim" \
	"$(jq -r '.chase[0] | "\(.repeats) \(.between_runs) \(.bimodal) \(.rep_lo_ns == .lat_ns)"' "$TMP/4k.json")" \
	"1 one false true"
usage_error "--repeats 21" chase --repeats 21
usage_error "unknown pattern" chase --pattern zigzag
# Every command that takes a chase pattern names every pattern 'list' has
# when it refuses one (list prints the kernels' table: the second path).
pats=$("$PAGEHOP" list --format json | jq -r '.chase_patterns[].pattern')
for args in "chase --pattern zigzag" "matrix --pattern zigzag" "prefetch --patterns zigzag"; do
	# shellcheck disable=SC2086
	"$PAGEHOP" $args >/dev/null 2>"$TMP/e"
	missing=$(for p in $pats; do grep -qF -- "$p" "$TMP/e" || echo "$p"; done)
	expect "$args: the error names every pattern" "$missing" ""
done
usage_error "pattern parameter not a slot multiple" chase --pattern tlb:100
usage_error "chains 0" chase --chains 0
usage_error "chains 17" chase --chains 17
usage_error "page size 3m" chase --page-size 3m
usage_error "backend" chase --backend dax
usage_error "node that does not exist" chase --membind 9
usage_error "malformed node list" chase --membind 0-
usage_error "too many threads" chase --threads 999
usage_error "size 0" chase --size 0
usage_error "--in-kernel with chains" chase --in-kernel --chains 2
usage_error "pattern larger than half the working set" chase --size 1M --pattern stride:1M
"$PAGEHOP" chase --in-kernel --size 1M >"$TMP/o" 2>"$TMP/e"
rc=$?
[ -e /dev/pagehop ] || { [ $rc -eq 4 ] && [ ! -s "$TMP/o" ] && pass "--in-kernel without the module: exit 4: $(cat "$TMP/e")" ||
	fail "--in-kernel without module: exit $rc $(cat "$TMP/e")"; }

# Ctrl-C: what was measured so far, then exit 130.
"$PAGEHOP" chase --size 16M --time 30 --ci 0.001 --format json >"$TMP/int.json" 2>/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
expect "SIGINT exits 130" "$rc" 130
jq -e '.chase[0].samples > 0 and (.notes | any(test("interrupted")))' "$TMP/int.json" >/dev/null &&
	pass "SIGINT prints the samples so far" || fail "SIGINT output: $(head -c 300 "$TMP/int.json")"
finish
