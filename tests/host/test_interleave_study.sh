# SPDX-License-Identifier: GPL-2.0-only
# test_interleave_study.sh - "pagehop interleave": bad usage exits 2 with
# one line on stderr and nothing on stdout; on a machine with fewer than
# two nodes with memory (numactl --hardware says how many) it exits 4 with
# nothing on stdout and says why; with two or more it lays every layout
# out and its pages counted back per node match the weights (the guest
# test wi.sh checks the counts against move_pages and sysfs in detail).
# Each node's kind: what this machine's sysfs shows, against its cpulist
# read here (CPUs: DRAM; none: CPU-less, or CXL where /sys/bus/cxl has a
# region on it); then the test build (BUILD/test/pagehop,
# PAGEHOP_CXL_ROOT) on a sysfs laid out as Linux lays out one CXL type-3
# device whose region0 (mem0) is onlined into the first node with memory:
# that node CXL.  With one node the kinds are read from the exit-4 line,
# with two or more from the document's nodes table.
. "$(dirname "$0")/lib.sh"
hooked=$(dirname "$PAGEHOP")/test/pagehop
SYS=/sys/devices/system/node
# The kind this machine's sysfs gives node $1, by hand.
kind_here() {
	if [ -n "$(cat $SYS/node$1/cpulist 2>/dev/null)" ]; then echo DRAM
	elif ls /sys/bus/cxl/devices/region* >/dev/null 2>&1; then echo "CXL or unknown"
	else echo CPU-less; fi
}
# The fixture: cxl_tree's region0 of mem0 onlined into node $1, no CPUs there.
fixture() {
	local R=$TMP/root
	cxl_tree "$R" "$1" ram
	mkdir -p "$R/sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0/ram"
	echo 0x10000000 >"$R/sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0/ram/size"
	mkdir -p "$R/sys/devices/system/node/node$1"
	echo "$1" >"$R/sys/devices/system/node/has_memory"
	echo >"$R/sys/devices/system/node/node$1/cpulist"
	echo "$R"
}

usage_error "unknown option" interleave --bogus
usage_error "--membind refused" interleave --membind 0
usage_error "--interleave refused" interleave --interleave 0
usage_error "--page-size refused" interleave --page-size 2m
usage_error "--search out of range" interleave --search 99
usage_error "--cpu-node not a number" interleave --cpu-node x
usage_error "--nodes: one node" interleave --nodes 0
usage_error "--nodes: no such node" interleave --nodes 4095
"$PAGEHOP" interleave --help >"$TMP/help" 2>&1
expect "--help exits 0" "$?" 0
expect "--help names --nodes" "$(grep -c -- '--nodes NODES' "$TMP/help")" 1

command -v numactl >/dev/null || skip_test "numactl is not installed: cannot count this machine's nodes with memory"
mem_nodes=$(numactl --hardware | awk '/^node [0-9]+ size:/ && $4 > 0 { n++ } END { print n + 0 }')
first=$(numactl --hardware | awk '/^node [0-9]+ size:/ && $4 > 0 { print $2; exit }')
if [ "$mem_nodes" -lt 2 ]; then
	"$PAGEHOP" interleave --time 0.1 >"$TMP/out" 2>"$TMP/err"
	expect "$mem_nodes node with memory: exit 4" "$?" 4
	expect "nothing on stdout" "$(wc -c <"$TMP/out")" 0
	expect "one line on stderr saying why" \
		"$(grep -c 'interleaving needs two or more' "$TMP/err") $(wc -l <"$TMP/err")" "1 1"
	expect "the exit-4 line names node $first's kind as its cpulist shows it ($(cat "$TMP/err"))" \
		"$(sed -n "s/.*(node $first: \([^)]*\)).*/\1/p" "$TMP/err")" "$(kind_here "$first")"
	[ -x "$hooked" ] || { fail "no test build $hooked (make all builds it)"; finish; }
	R=$(fixture "$first")
	PAGEHOP_CXL_ROOT=$R "$hooked" interleave --time 0.1 >"$TMP/out" 2>"$TMP/err"
	expect "fixture: exit 4" "$?" 4
	expect "fixture: region0's node $first is CXL ($(cat "$TMP/err"))" \
		"$(grep -c "(node $first: CXL); interleaving needs two or more" "$TMP/err")" 1
	finish
fi
[ "$(id -u)" -eq 0 ] || skip_test "not root: reading back where the memory is needs root"
"$PAGEHOP" interleave --size 16M --time 0.2 --search 1 --format json >"$TMP/j.json" 2>"$TMP/err"
rc=$?
expect "$mem_nodes nodes: exit 0" "$rc" 0
expect "every layout measured or skipped with its reason" \
	"$(jq -r '[.layouts[] | select((.bw_GBps == null) and (.skipped == null))] | length' "$TMP/j.json")" 0
expect "every page table row matches" "$(jq -r '[.pages[] | select(.match != true)] | length' "$TMP/j.json")" 0
for nd in $(jq -r '.nodes[].node' "$TMP/j.json"); do
	k=$(jq -r ".nodes[] | select(.node == $nd) | .kind" "$TMP/j.json")
	case "$(kind_here "$nd")" in
	"CXL or unknown") [ "$k" = CXL ] || [ "$k" = unknown ] || [ "$k" = CPU-less ] &&
		pass "node $nd: $k (CPU-less, a CXL region on this machine)" || fail "node $nd: kind $k" ;;
	*) expect "node $nd's kind as its cpulist shows it" "$k" "$(kind_here "$nd")" ;;
	esac
done
# The CPU node's own row (dram, where that node has memory) names its kind.
cpu=$(jq -r .interleave.cpu_node "$TMP/j.json")
if [ "$(jq -r "[.layouts[] | select(.layout == \"dram\")] | length" "$TMP/j.json")" = 1 ]; then
	expect "the CPU node alone says its kind" \
		"$(jq -r '.layouts[] | select(.layout == "dram") | .over' "$TMP/j.json")" \
		"node $cpu ($(jq -r ".nodes[] | select(.node == $cpu) | .kind" "$TMP/j.json")) alone"
fi
[ -x "$hooked" ] || { fail "no test build $hooked (make all builds it)"; finish; }
# fixtured DESC MEMDEVS: interleave on the fixture R; node $first is CXL,
# region0 of MEMDEVS.
fixtured() {
	PAGEHOP_CXL_ROOT=$R "$hooked" interleave --size 16M --time 0.1 --search 0 --format json >"$TMP/f.json" 2>"$TMP/err"
	rc=$?
	expect "$1: exit 0 ($(head -c 300 "$TMP/err"))" "$rc" 0
	expect "$1: node $first is CXL, region0 of $2" \
		"$(jq -r ".nodes[] | select(.node == $first) | \"\(.kind) \(.cxl_regions): \(.kind_from)\"" "$TMP/f.json")" \
		"CXL region0 ($2): region0 ($2) of /sys/bus/cxl/devices has its memory on node $first"
}
R=$(fixture "$first")
fixtured fixture mem0
# region0 interleaved over two devices (cxl_tree's two ways): both named.
cxl_tree "$R" "$first" ram 2
fixtured "fixture, two ways" mem0,mem1
finish
