# SPDX-License-Identifier: GPL-2.0-only
# test_hops.sh - "pagehop hops" on this host: a row per level, size and
# figure, sizes the powers of two asked, level 0 on the CPU's own node by
# sysfs, the level of each node recomputed from the kernel's distances in
# sysfs, every row verified; and bad input.  No timing is asserted.
. "$(dirname "$0")/lib.sh"

node_of() { basename /sys/devices/system/cpu/cpu$1/node* | tr -d node; }
"$PAGEHOP" hops --physcpubind 0 --min 64K --max 256K --kernel read,triad --time 0.1 --ci 50 \
	--format json >"$TMP/h.json" 2>"$TMP/err" || fail "hops: $(cat "$TMP/err")"
levels=$(jq '.hops_method.levels' "$TMP/h.json")
expect "rows: levels x 3 sizes x 3 figures" "$(jq '.hops | length' "$TMP/h.json")" $((levels * 9))
expect "sizes" "$(jq -c '[.hops[].size_KiB] | unique' "$TMP/h.json")" "[64,128,256]"
expect "figures" "$(jq -c '[.hops[].figure] | unique' "$TMP/h.json")" '["latency","read","triad"]'
n0=$(node_of 0)
expect "level 0 on CPU 0's node" "$(jq -c '[.hops[] | select(.level == 0) | .mem_node] | unique' "$TMP/h.json")" "[$n0]"
expect "CPU 0 measured" "$(jq -c '[.hops[] | "\(.cpu)/\(.cpu_node)"] | unique' "$TMP/h.json")" "[\"0/$n0\"]"
# Each level's distance is the kernel's (sysfs), and the levels are the
# distinct distances from node n0 in ascending order.
row=$(cat /sys/devices/system/node/node$n0/distance)
want=$(echo $row | tr ' ' '\n' | sort -n | uniq | paste -sd,)
expect "one level per distinct distance" "$(jq -r '[.hops[].distance] | unique | join(",")' "$TMP/h.json")" "$want"
jq -e '[.hops[] | .verified] | all' "$TMP/h.json" >/dev/null && pass "every row verified" || fail "verified: $(jq -c .hops "$TMP/h.json")"
jq -e '[.hops[] | (.bw_GBps // .lat_ns) > 0] | all' "$TMP/h.json" >/dev/null && pass "every figure measured" ||
	fail "figures: $(jq -c .hops "$TMP/h.json")"

# The sweep shows its cache knees: from 16 KiB (inside any L1d) to 64 MiB
# (beyond any L2) the latency grows several-fold, and bench/knees.sh, which
# finds the knees against hwloc's caches, sees at least one in the curve.
# Qualitative only: the step from L1 to memory is tens of times, not 3.
"$PAGEHOP" hops --physcpubind 0 --min 16K --max 64M --kernel read --time 0.1 --ci 50 \
	--format json >"$TMP/sweep.json" 2>"$TMP/err" || fail "sweep: $(cat "$TMP/err")"
lat() { jq -r --argjson k "$1" '.hops[] | select(.level == 0 and .figure == "latency" and .size_KiB == $k) | .lat_ns' "$TMP/sweep.json"; }
lo=$(lat 16) hi=$(lat 65536)
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo > 0 && hi >= 3 * lo) }' &&
	pass "latency 16 KiB $lo ns -> 64 MiB $hi ns" || fail "no cache knee: 16 KiB $lo ns, 64 MiB $hi ns"
if command -v hwloc-info >/dev/null; then
	KNEES_JSON=$TMP/sweep.json bash "$(dirname "$0")/../../bench/knees.sh" 64M "$PAGEHOP" >"$TMP/knees" 2>&1
	n=$(awk '/^  latency/ { f = 1; next } /^  [a-z]/ { f = 0 } f && /knee from/' "$TMP/knees" | wc -l)
	[ "$n" -ge 1 ] && pass "knees.sh: $n latency knee(s): $(grep -A4 '^  latency' "$TMP/knees" | grep 'knee from' | paste -sd';')" ||
		fail "knees.sh found no latency knee: $(cat "$TMP/knees")"
else
	echo "hwloc-info missing: the knee finder is not run"
fi

usage_error "--min not a power of two" hops --min 3K
usage_error "--min above --max" hops --min 1M --max 64K
usage_error "two CPUs" hops --physcpubind 0,1
usage_error "--membind refused" hops --membind 0
usage_error "--threads refused" hops --threads 2
usage_error "unknown kernel" hops --kernel fma
finish
