# SPDX-License-Identifier: GPL-2.0-only
# test_interleave_study.sh - "pagehop interleave": bad usage exits 2 with
# one line on stderr and nothing on stdout; on a machine with fewer than
# two nodes with memory (numactl --hardware says how many) it exits 4 with
# nothing on stdout and says why; with two or more it lays every layout
# out and its pages counted back per node match the weights (the guest
# test wi.sh checks the counts against move_pages and sysfs in detail).
. "$(dirname "$0")/lib.sh"

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
if [ "$mem_nodes" -lt 2 ]; then
	"$PAGEHOP" interleave --time 0.1 >"$TMP/out" 2>"$TMP/err"
	expect "$mem_nodes node with memory: exit 4" "$?" 4
	expect "nothing on stdout" "$(wc -c <"$TMP/out")" 0
	expect "one line on stderr saying why" \
		"$(grep -c 'interleaving needs two or more' "$TMP/err") $(wc -l <"$TMP/err")" "1 1"
	finish
fi
[ "$(id -u)" -eq 0 ] || skip_test "not root: reading back where the memory is needs root"
"$PAGEHOP" interleave --size 16M --time 0.2 --search 1 --format json >"$TMP/j.json" 2>"$TMP/err"
rc=$?
expect "$mem_nodes nodes: exit 0" "$rc" 0
expect "every layout measured or skipped with its reason" \
	"$(jq -r '[.layouts[] | select((.bw_GBps == null) and (.skipped == null))] | length' "$TMP/j.json")" 0
expect "every page table row matches" "$(jq -r '[.pages[] | select(.match != true)] | length' "$TMP/j.json")" 0
finish
