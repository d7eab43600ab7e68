# SPDX-License-Identifier: GPL-2.0-only
# cxl_wi.sh - on cxl, after cxl.sh made the expander's region a CPU-less
# node: pagehop interleave over DRAM node 0 and the CXL node, read from
# node 0's CPU.  Checked: the counts, not the speed (TCG timings mean
# nothing).  The CXL node's memory is small and first touch on the
# emulated device runs at about 1 MB/s, so the size is 2 MiB: 512 pages of
# 4 KiB a layout.  The kernel's weights are read from sysfs here, never
# written, and the document must show them as sysfs holds them.  The
# document's nodes table must name the CXL node CXL, with the region whose
# memory /sys/bus/cxl shows on it, and node 0 DRAM.
. /tests/tap.sh
plan 9
WI=/sys/kernel/mm/mempolicy/weighted_interleave
j=/tmp/cxlwi.json
N=512

node=
for d in /sys/devices/system/node/node*; do
	[ -z "$(cat "$d/cpulist")" ] && [ "$(awk '/MemTotal/ {print $4}' "$d/meminfo")" -gt 0 ] && node=${d##*node}
done
if [ -z "$node" ]; then
	for t in "interleave runs" "CXL node named" "DRAM node named" "CXL node alone" "interleave" "proposed" "search1" "kernel weights" "kernel counts"; do
		skip "$t" "no CPU-less CXL node (cxl.sh did not make one)"
	done
	exit 0
fi

pagehop interleave --cpu-node 0 --nodes 0,$node --size 2M --time 0.05 --search 1 --format json >$j 2>/tmp/cxlwi.err
rc=$?
[ $rc = 0 ] && ok "interleave over node 0 and CXL node $node exits 0" || not_ok "interleave runs" "exit $rc: $(cat /tmp/cxlwi.err)"

# The region on the node, from sysfs here: the region a memory block of which links to it.
region=
bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
for r in /sys/bus/cxl/devices/region*; do
	start=$(($(cat $r/resource))) size=$(($(cat $r/size)))
	b=$((start / bs))
	while [ "$size" -gt 0 ] && [ $b -le $(((start + size - 1) / bs)) ]; do
		[ -e /sys/devices/system/memory/memory$b/node$node ] && region=${r##*/}
		b=$((b + 1))
	done
done
k=$(jq -r --argjson n $node '.nodes[] | select(.node == $n) | "\(.kind) \(.cxl_regions): \(.kind_from)"' $j)
o=$(jq -r --arg l node$node '.layouts[] | select(.layout == $l) | .over' $j)
case "$k" in
"CXL $region ("*"): $region ("*"has its memory on node $node"*) [ -n "$region" ] && [ "$o" = "node $node (CXL) alone" ] &&
	ok "node $node is named CXL ($k), its layout \"$o\"" || not_ok "CXL node named" "sysfs region '$region'; layout over \"$o\"" ;;
*) not_ok "CXL node named" "nodes table: '$k', sysfs region '$region'" ;;
esac
k=$(jq -r '.nodes[] | select(.node == 0) | .kind' $j)
[ "$k" = DRAM ] && [ -n "$(cat /sys/devices/system/node/node0/cpulist)" ] && ok "node 0 (CPUs $(cat /sys/devices/system/node/node0/cpulist)) is named DRAM" ||
	not_ok "DRAM node named" "nodes table: '$k'"

counted() { jq -r --arg l "$1" '[.pages[] | select(.layout == $l) | "\(.node):\(.counted_pages)"] | join(",")' $j; }
weights() { jq -r --arg l "$1" '.layouts[] | select(.layout == $l) | .weights' $j; }

c=$(counted node$node)
[ "$c" = "$node:$N" ] && ok "node$node (CXL) alone: all $N pages there" || not_ok "CXL node alone" "counted $c"

# Plain interleave over 2 nodes: 512 / 2 = 256 each.
c=$(counted interleave)
[ "$c" = "0:256,$node:256" ] && ok "interleave: 256 pages on each node" || not_ok "interleave" "counted $c"

for l in proposed search1; do
	w=$(weights $l)
	c=$(counted $l)
	want=$(wi_robin $N "$w")
	[ -n "$w" ] && [ "$c" = "$want" ] && ok "$l (weights $w): pages per node $c" || not_ok "$l (weights $w)" "counted $c, want $want; $(jq -c '.layouts[] | select(.layout == "'$l'") | .skipped' $j)"
done

if [ -d $WI ]; then
	# The weights as the kernel set them (0 reads as 1 in the kernel's use).
	s0=$(cat $WI/node0) s1=$(cat $WI/node$node)
	got=$(jq -r '[.. | objects | select(has("sysfs_weights")) | .sysfs_weights][0]' $j)
	[ "$got" = "0:$s0,$node:$s1" ] && ok "the document's sysfs weights are sysfs's: $got" ||
		not_ok "kernel weights" "document $got; sysfs 0:$s0,$node:$s1"
	# Kernel layout: W = w0 + w1 a cycle; N / W whole cycles give
	# floor(N / W) * w_k, the partial one 0 to w_k more, the sum N.
	k0=$s0 k1=$s1; [ "$k0" -gt 0 ] || k0=1; [ "$k1" -gt 0 ] || k1=1
	c=$(counted kernel)
	echo "$c" | awk -F, -v N=$N -v a=$k0 -v b=$k1 '{ W = a + b; s = 0; bad = 0
		for (i = 1; i <= NF; i++) { split($i, p, ":"); s += p[2]; w = (i == 1) ? a : b
			lo = int(N / W) * w; if (p[2] < lo || p[2] > lo + w) bad = 1 }
		exit !(NF == 2 && s == N && !bad) }' && ok "kernel (weights $k0:$k1): pages per node $c, within one cycle" ||
		not_ok "kernel counts" "counted $c, weights $k0:$k1"
else
	skip "kernel weights" "$(uname -r): no $WI"
	skip "kernel counts" "$(uname -r): no weighted interleave"
fi
jq -r '.nodes[] | "node \(.node) \(.kind) \(.cxl_regions // "-"): \(.kind_from)"' $j | sed 's/^/# /'
jq -r '.layouts[] | "\(.layout) \(.over) \(.weights) \(.skipped // "")"' $j | sed 's/^/# /'
sed 's/^/# stderr: /' /tmp/cxlwi.err
