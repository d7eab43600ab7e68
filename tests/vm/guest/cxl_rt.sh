# SPDX-License-Identifier: GPL-2.0-only
# cxl_rt.sh - the second boot of the CXL round trip (tests/vm/cxl_roundtrip.sh),
# after cxl.sh: QEMU was given the CDAT "pagehop cxl --emit-cdat" wrote in
# the first boot (VM_CXL_RT_HEX, its bytes), and the first boot's document
# predicted what the kernel does with it: each access0 and access1 figure
# (VM_CXL_RT_COORDS: read and write latency ns, read and write bandwidth
# MB/s, access0 then access1), node access1's read latency
# (VM_CXL_RT_LAT1, its proposed_read_lat_ns) and the memory tier
# (VM_CXL_RT_TIER, its proposed_tier; empty when it gave none).  Read here
# from sysfs by cat, not by pagehop.
. /tests/tap.sh
plan 5
cxlbus=/sys/bus/cxl/devices
node=
for d in /sys/devices/system/node/node*; do
	[ -z "$(cat "$d/cpulist")" ] && [ -d "$d/access0" ] && node=${d##*node}
done
ep=
for e in $cxlbus/endpoint*; do
	[ -e "$e/uport" ] && [ "$(basename "$(readlink "$e/uport")")" = mem0 ] && ep=$(basename "$e")
done
if [ -z "$node" ] || [ -z "$ep" ] || [ ! -d $cxlbus/region0 ]; then
	for t in "CDAT bytes" "node coordinates" "region coordinates" "access1 read latency" "tier"; do
		skip "$t" "no CXL memory node, endpoint or region0 (cxl.sh did not make them)"
	done
	exit 0
fi

got=$(od -A n -t x1 -v $cxlbus/$ep/CDAT | tr -d ' \n')
[ -n "$got" ] && [ "$got" = "$VM_CXL_RT_HEX" ] &&
	ok "$ep/CDAT is the CDAT the first boot emitted, byte for byte ($(($(printf %s "$got" | wc -c) / 2)) bytes)" ||
	not_ok "CDAT bytes" "sysfs: $got; emitted: $VM_CXL_RT_HEX"

# coords DIR SUFFIX: the eight figures, access0 then access1.
coords() {
	for a in 0 1; do
		for f in read_latency write_latency read_bandwidth write_bandwidth; do
			printf '%s ' "$(cat "$1/access$a$2/$f" 2>/dev/null)"
		done
	done | sed 's/ $//'
}
got=$(coords /sys/devices/system/node/node$node /initiators)
[ "$got" = "$VM_CXL_RT_COORDS" ] &&
	ok "node $node's access0 and access1 are what the first boot predicted: $got" ||
	not_ok "node coordinates" "sysfs: $got; predicted: $VM_CXL_RT_COORDS"
got=$(coords $cxlbus/region0 '')
[ "$got" = "$VM_CXL_RT_COORDS" ] &&
	ok "region0's access0 and access1 are what the first boot predicted: $got" ||
	not_ok "region coordinates" "sysfs: $got; predicted: $VM_CXL_RT_COORDS"
got=$(cat /sys/devices/system/node/node$node/access1/initiators/read_latency)
[ "$got" = "$VM_CXL_RT_LAT1" ] &&
	ok "node $node's access1 read latency $got ns: the first document's proposed_read_lat_ns" ||
	not_ok "access1 read latency" "sysfs: $got; proposed: $VM_CXL_RT_LAT1"
tnow=
for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
	grep -qx "$node" "$t/nodelist" 2>/dev/null && tnow=${t##*memory_tier}
done
if [ -z "$VM_CXL_RT_TIER" ]; then
	skip "tier" "the first document predicted no tier (node $node is in memory_tier$tnow)"
else
	[ "$tnow" = "$VM_CXL_RT_TIER" ] &&
		ok "node $node in memory_tier$tnow: the first document's proposed_tier" ||
		not_ok "tier" "sysfs: memory_tier$tnow; proposed: $VM_CXL_RT_TIER; $(for t in /sys/devices/virtual/memory_tiering/*; do
			echo "$t: $(cat $t/nodelist 2>&1)"; done)"
fi
