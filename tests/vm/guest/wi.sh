# SPDX-License-Identifier: GPL-2.0-only
# wi.sh - "pagehop interleave" in the 4-node guest (one CPU per node, so
# one thread on node 0's CPU and one segment of 16 MiB, 4096 pages): every
# layout's pages per node, as the study counted them with move_pages,
# against counts worked out here from the weights alone (the counts, not
# the speed: TCG timings mean nothing).  The test writes the kernel's
# weights 3 1 1 1 into sysfs itself (pagehop only reads them) and puts
# back what was there.  On 6.12 the kernel's weighted layout must hold
# 3:1:1:1 of the pages; on 6.1 weighted interleave is absent, and the
# study says so and skips that layout only.
. /tests/tap.sh
plan 16

WI=/sys/kernel/mm/mempolicy/weighted_interleave
j=/tmp/wi.json
N=4096
old=""
if [ -d $WI ]; then
	for n in 0 1 2 3; do old="$old $(cat $WI/node$n)"; done
	echo 3 >$WI/node0
	for n in 1 2 3; do echo 1 >$WI/node$n; done
fi
pagehop interleave --cpu-node 0 --size 16M --time 0.2 --search 2 --format json >$j 2>/tmp/wi.err
rc=$?
if [ -d $WI ]; then
	set -- $old
	for n in 0 1 2 3; do echo "$1" >$WI/node$n; shift; done
fi
[ $rc = 0 ] && ok "interleave exits 0" || not_ok "interleave exits 0" "exit $rc: $(cat /tmp/wi.err)"
check "json parses" jq -e .layouts $j

# counted LAYOUT: "node:pages,..." as the study counted them.
counted() { jq -r --arg l "$1" '[.pages[] | select(.layout == $l) | "\(.node):\(.counted_pages)"] | join(",")' $j; }
weights() { jq -r --arg l "$1" '.layouts[] | select(.layout == $l) | .weights' $j; }

c=$(counted dram)
[ "$c" = "0:$N" ] && ok "dram: all $N pages on node 0" || not_ok "dram: all pages on node 0" "counted $c"

# Plain interleave over 4 nodes: 4096 / 4 = 1024 each, whatever page it starts at.
c=$(counted interleave)
[ "$c" = "0:1024,1:1024,2:1024,3:1024" ] && ok "interleave: 1024 pages on each node" ||
	not_ok "interleave: 1024 pages on each node" "counted $c"

for l in proposed search1 search2; do
	w=$(weights $l)
	if [ -z "$w" ]; then not_ok "$l: a row" "$(jq -c .layouts $j)"; continue; fi
	c=$(counted $l)
	want=$(wi_robin $N "$w")
	[ "$c" = "$want" ] && ok "$l (weights $w): pages per node $c" || not_ok "$l (weights $w)" "counted $c, want $want"
done

if [ -d $WI ]; then
	w=$(weights kernel)
	[ "$w" = "0:3,1:1,2:1,3:1" ] && ok "kernel: the weights sysfs holds, 3 1 1 1" ||
		not_ok "kernel: the weights sysfs holds" "weights $w"
	# 4096 pages, cycle 6: 682 whole cycles (2046, 682 x3) and 4 pages more,
	# placed by the page's offset: node 0 gets 0 to 3 more, each other 0 or 1.
	c=$(counted kernel)
	echo "$c" | awk -F, -v N=$N '{ s = 0; bad = 0
		for (i = 1; i <= NF; i++) { split($i, p, ":"); s += p[2]
			lo = (i == 1) ? 2046 : 682; hi = (i == 1) ? 2049 : 683
			if (p[2] < lo || p[2] > hi) bad = 1 }
		exit !(s == N && !bad) }' && ok "kernel: pages per node 3:1:1:1 within one cycle: $c" ||
		not_ok "kernel: pages per node 3:1:1:1" "counted $c"
	m=$(jq -r '[.pages[] | select(.match != true)] | length' $j)
	[ "$m" = 0 ] && ok "every layout's counts match (study's verdict)" || not_ok "every layout's counts match" "$(jq -c .pages $j)"
	skip "6.1: weighted interleave absent" "$(uname -r) has it"
else
	skip "kernel: the weights sysfs holds" "$(uname -r): no $WI"
	skip "kernel: pages per node" "$(uname -r): no weighted interleave"
	m=$(jq -r '[.pages[] | select(.match != true)] | length' $j)
	[ "$m" = 0 ] && ok "every layout's counts match (study's verdict)" || not_ok "every layout's counts match" "$(jq -c .pages $j)"
	s=$(jq -r '.layouts[] | select(.layout == "kernel") | .skipped' $j)
	case $s in
	*"no MPOL_WEIGHTED_INTERLEAVE"*) ok "6.1: weighted interleave reported absent: $s" ;;
	*) not_ok "6.1: weighted interleave reported absent" "kernel row: $s" ;;
	esac
fi

# Bad usage: one node is not an interleave.
pagehop interleave --nodes 0 >/tmp/wi.out 2>/tmp/wi.err
rc=$?
[ $rc = 2 ] && [ ! -s /tmp/wi.out ] && ok "--nodes 0: exit 2, nothing on stdout" ||
	not_ok "--nodes 0: exit 2" "exit $rc: $(cat /tmp/wi.err)"

# The table, as a person reads it: within 100 columns, the layouts named.
pagehop interleave --cpu-node 0 --size 16M --time 0.2 --search 1 >/tmp/wi.txt 2>/tmp/wi.err
rc=$?
[ $rc = 0 ] && ok "table: exit 0" || not_ok "table: exit 0" "exit $rc: $(cat /tmp/wi.err)"
wide=$(awk 'length($0) > 100' /tmp/wi.txt | wc -l)
[ "$wide" = 0 ] && grep -q '^ *proposed' /tmp/wi.txt && ok "table: within 100 columns, every layout a row" ||
	not_ok "table: within 100 columns" "$wide lines wider"
sed 's/^/# /' /tmp/wi.txt

# The check catches a wrong placement: the test build's hook gives each
# run of pagehop's round robin to the next node (--search 1: at least one
# layout of unequal weights, whose counts then differ), which the read-back
# of the session cannot see (every page on a node of the layout).
PAGEHOP_FAULT_INJECT=weights pagehop-test interleave --cpu-node 0 --nodes 0,1 --size 4M --time 0.05 \
	--search 1 --format json >/tmp/wf.json 2>/tmp/wf.err
rc=$?
[ $rc = 1 ] && grep -q 'do not match its weights' /tmp/wf.err &&
	ok "runs on the wrong nodes: exit 1, named: $(grep -m1 'do not match' /tmp/wf.err)" ||
	not_ok "runs on the wrong nodes: exit 1" "exit $rc: $(cat /tmp/wf.err)"
PAGEHOP_FAULT_INJECT=weights pagehop interleave --cpu-node 0 --nodes 0,1 --size 4M --time 0.05 \
	--search 1 --format json >/tmp/wf.json 2>/tmp/wf.err
rc=$?
[ $rc = 0 ] && ok "the shipping pagehop ignores PAGEHOP_FAULT_INJECT" ||
	not_ok "the shipping pagehop ignores PAGEHOP_FAULT_INJECT" "exit $rc: $(cat /tmp/wf.err)"
