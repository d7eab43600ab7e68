# SPDX-License-Identifier: GPL-2.0-only
# test_c2c.sh - "pagehop c2c" on this host: CPUs 0 and 1 give one figure
# with its CI, the matrix and summaries agree with it, the pair's relation
# agrees with sysfs (a second path beside hwloc), the line's page is read
# back on the node asked, the between-run columns agree with the repeats
# recomputed from the table of repeats, every format renders, and bad
# input is refused.
# How fast a hand-off is, is the host's business: bench/contention.sh.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip_test "c2c needs two CPUs; this host has $(nproc)"

"$PAGEHOP" c2c --cpus 0,1 --time 2 --repeats 3 --format json >"$TMP/c.json" 2>"$TMP/err" ||
	fail "c2c 0,1: $(cat "$TMP/err")"
expect "one pair" "$(jq -r '.c2c | length' "$TMP/c.json")" 1
expect "the pair is 0,1" "$(jq -r '.c2c[0] | "\(.cpu_a),\(.cpu_b)"' "$TMP/c.json")" 0,1
lat=$(jq -r '.c2c[0].lat_ns' "$TMP/c.json")
lo=$(jq -r '.c2c[0].ci_lo_ns' "$TMP/c.json")
hi=$(jq -r '.c2c[0].ci_hi_ns' "$TMP/c.json")
n=$(jq -r '.c2c[0].samples' "$TMP/c.json")
awk -v n="$n" 'BEGIN { exit !(n >= 6) }' && pass "$n samples, enough for a CI" ||
	fail "only $n samples in 2 s: no CI"
awk -v l="$lat" -v a="$lo" -v b="$hi" 'BEGIN { exit !(l > 0 && a > 0 && a <= l && l <= b) }' &&
	pass "one figure with its CI: $lat ns [$lo, $hi]" || fail "figure $lat ns, CI [$lo, $hi]"
# The matrix holds the pair's median both ways, nothing on the diagonal.
expect "matrix is 2 x 2" "$(jq -r '[.c2c_matrix | length, (.[0] | keys | length)] | join("x")' "$TMP/c.json")" 2x3
expect "matrix [0][1] and [1][0] are the pair's median" \
	"$(jq -r '[.c2c_matrix[0].cpu1_ns, .c2c_matrix[1].cpu0_ns] | join(" ")' "$TMP/c.json")" "$lat $lat"
expect "matrix diagonal empty" "$(jq -r '.c2c_matrix[0].cpu0_ns' "$TMP/c.json")" null
expect "summary by relation: one pair, its median" \
	"$(jq -r '.by_relation[0] | "\(.pairs) \(.lat_ns)"' "$TMP/c.json")" "1 $lat"
expect "summary by node pair: one pair" "$(jq -r '.by_node_pair | map(.pairs) | add' "$TMP/c.json")" 1

# The repeats, recomputed from the table of repeats: as many as asked, the
# lowest and highest median, the picked one the pair's figure, and whether
# two of them are apart beyond their CIs.
expect_repeats "c2c 0-1" "$TMP/c.json" '.c2c[0]' '[.c2c_repeats[] | select(.cpu_a == 0 and .cpu_b == 1)]' lat_ns ns 3
expect "repeats numbered 1-3" "$(jq -r '[.c2c_repeats[].repeat] | join(",")' "$TMP/c.json")" 1,2,3
between=$(jq -r '.c2c[0].between_runs' "$TMP/c.json")
if [ "$between" = differ ]; then
	grep -q '"CPUs 0-1: the 3 repeats differ beyond their CIs' "$TMP/c.json" && pass "a note names the pair whose repeats differ" ||
		fail "repeats differ, no note"
fi
expect "by_relation counts the pairs that differ" "$(jq -r '.by_relation[0].pairs_differ' "$TMP/c.json")" \
	"$([ "$between" = differ ] && echo 1 || echo 0)"
"$PAGEHOP" c2c --cpus 0,1 --time 0.2 --repeats 1 --format json >"$TMP/r1.json" 2>"$TMP/err" ||
	fail "--repeats 1: $(cat "$TMP/err")"
expect "--repeats 1: one run, no between-run claim" \
	"$(jq -r '.c2c[0] | "\(.repeats) \(.between_runs) \(.bimodal) \(.rep_lo_ns == .lat_ns) \(.rep_hi_ns == .lat_ns)"' "$TMP/r1.json")" \
	"1 one false true true"
expect "--repeats 1: one row of repeats" "$(jq -r '.c2c_repeats | length' "$TMP/r1.json")" 1

# The relation through sysfs, not hwloc: siblings, a shared L3, a node.
sib=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)
l3=""
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -e "$d/level" ] || continue
	[ "$(cat "$d/level")" = 3 ] && l3=$(cat "$d/shared_cpu_list")
done
in_list() { # CPU LIST: is CPU in the kernel's list "0-3,8"?
	local IFS=,
	for r in $2; do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
	done
	return 1
}
node0=$(basename /sys/devices/system/cpu/cpu0/node* | tr -dc 0-9)
node1=$(basename /sys/devices/system/cpu/cpu1/node* | tr -dc 0-9)
if in_list 1 "$sib"; then want=smt
elif [ -n "$l3" ] && in_list 1 "$l3"; then want=l3
elif [ "$node0" = "$node1" ]; then want=node
else want=other; fi
rel=$(jq -r '.c2c[0].relation' "$TMP/c.json")
if [ $want = other ]; then
	case $rel in socket | remote) pass "relation $rel, CPUs on nodes $node0 and $node1" ;;
	*) fail "relation $rel for CPUs on nodes $node0 and $node1" ;; esac
else
	expect "relation agrees with sysfs" "$rel" $want
fi
expect "nodes of the pair" "$(jq -r '.c2c[0] | "\(.node_a) \(.node_b)"' "$TMP/c.json")" "$node0 $node1"

# The line's page, read back on the node asked (the first CPU's by default).
expect "line verified" "$(jq -r '.line.verified' "$TMP/c.json")" true
expect "line asked on CPU 0's node" "$(jq -r '.line.node_asked' "$TMP/c.json")" "$node0"
expect "line found there" "$(jq -r '.line.node_found' "$TMP/c.json")" "$node0"
expect "row says verified" "$(jq -r '.c2c[0].verified' "$TMP/c.json")" true
"$PAGEHOP" c2c --cpus 0,1 --membind "$node0" --time 0.2 --format json >"$TMP/m.json" 2>"$TMP/err" ||
	fail "--membind $node0: $(cat "$TMP/err")"
expect "--membind: line on that node" "$(jq -r '.line | "\(.node_asked) \(.node_found) \(.verified)"' "$TMP/m.json")" \
	"$node0 $node0 true"

# Table and CSV render the same pair.
"$PAGEHOP" c2c --cpus 0-1 --time 0.2 >"$TMP/t" 2>"$TMP/err" || fail "table: $(cat "$TMP/err")"
grep -q "CPU x CPU" "$TMP/t" && pass "table has the matrix" || fail "table: no matrix: $(cat "$TMP/t")"
"$PAGEHOP" c2c --cpus 0-1 --time 0.2 --format csv >"$TMP/c.csv" 2>"$TMP/err" || fail "csv: $(cat "$TMP/err")"
grep -q "^cpu_a,cpu_b,relation" "$TMP/c.csv" && pass "csv pairs header" || fail "csv: $(head -3 "$TMP/c.csv")"
grep -q "^cpu_a,cpu_b,relation.*,repeats,rep_lo_ns,rep_hi_ns,between_runs,bimodal," "$TMP/c.csv" &&
	pass "csv has the between-run columns" || fail "csv: $(grep ^cpu_a "$TMP/c.csv")"
grep -q "^cpu_a,cpu_b,repeat,lat_ns,ci_lo_ns,ci_hi_ns" "$TMP/c.csv" && pass "csv has the repeats" ||
	fail "csv: no table of repeats"

usage_error "one CPU" c2c --cpus 0
usage_error "two nodes for one line" c2c --cpus 0,1 --membind 0-1
usage_error "--threads refused" c2c --threads 2
usage_error "--size refused" c2c --size 1M
usage_error "bad CPU list" c2c --cpus 0,x
usage_error "--repeats 0" c2c --repeats 0
usage_error "--repeats 21" c2c --repeats 21
finish
