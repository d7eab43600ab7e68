# SPDX-License-Identifier: GPL-2.0-only
# test_knees.sh - bench/knees.sh's knee finder on a made-up "pagehop hops"
# JSON (KNEES_JSON): latency steps placed by hand at 32->64 KiB and 1->2
# MiB, flat elsewhere, must be found there and nowhere else; a flat curve
# must fail (exit 1) naming the caches it did not see; and on a machine
# with one node the remote levels are said to be absent, by sysfs.
. "$(dirname "$0")/lib.sh"

command -v hwloc-info >/dev/null || skip_test "SKIP: hwloc-info missing"
command -v jq >/dev/null || skip_test "SKIP: jq missing"
root=$(cd "$(dirname "$0")/../.." && pwd)
node=$(basename /sys/devices/system/cpu/cpu0/node* | tr -d node)

# hops JSON: level 0 on CPU 0, latency L(size) by the awk rule given.
make_json() {
	awk -v node="$node" -v rule="$1" 'BEGIN {
		printf "{\"hops_method\": {\"cpu\": 0, \"cpu_node\": %d, \"levels\": 1}, \"hops\": [", node
		for (k = 4; k <= 8192; k *= 2) {
			lat = 1
			if (rule == "steps") lat = k >= 64 ? (k >= 2048 ? 100 : 5) : 1
			printf "%s{\"level\": 0, \"mem_node\": %d, \"distance\": 10, \"size_KiB\": %d, \"figure\": \"latency\", \"lat_ns\": %g, \"bw_GBps\": null}", (k > 4 ? "," : ""), node, k, lat
		}
		print "]}"
	}'
}
make_json steps >"$TMP/steps.json"
make_json flat >"$TMP/flat.json"

KNEES_JSON=$TMP/steps.json bash "$root/bench/knees.sh" 8M "$PAGEHOP" >"$TMP/out" 2>"$TMP/err"
rc=$?
knees=$(grep -o 'knee from [0-9.]* [KMG]iB to [0-9.]* [KMG]iB' "$TMP/out" | paste -sd';')
expect "knees where they were put" "$knees" "knee from 32 KiB to 64 KiB;knee from 1 MiB to 2 MiB"
l1=$(hwloc-info -p --ancestors pu:0 | awk '/^L1dCache/ { f = 1 } f && /cache size/ { print $NF; exit }')
l2=$(hwloc-info -p --ancestors pu:0 | awk '/^L2Cache/ { f = 1 } f && /cache size/ { print $NF; exit }')
# Exit 0 exactly when hwloc's L1d and L2 lie where the steps are (A/2 <= C <= B).
want=1
[ -n "$l1" ] && [ -n "$l2" ] && [ "$l1" -ge 16384 ] && [ "$l1" -le 65536 ] &&
	[ "$l2" -ge 524288 ] && [ "$l2" -le 2097152 ] && want=0
expect "exit status against hwloc's L1d $l1 and L2 $l2 ($(cat "$TMP/err"))" "$rc" "$want"

KNEES_JSON=$TMP/flat.json bash "$root/bench/knees.sh" 8M "$PAGEHOP" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect "flat curve: exit 1" "$rc" 1
expect "flat curve: says no knee" "$(grep -c 'no knee' "$TMP/out")" 1
expect "flat curve: names L1d missing" "$(grep -c 'no latency knee at L1d' "$TMP/err")" 1

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
if [ "$nodes" = 1 ]; then
	expect "one node: levels 1 and 2 absent, with the sysfs distances" \
		"$(grep -c "^level [12]: absent: node $node's distances list 0 remote" "$TMP/out")" 2
else
	echo "$nodes nodes: the absent-level lines are checked on one-node hosts"
fi
finish
