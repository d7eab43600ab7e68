# SPDX-License-Identifier: GPL-2.0-only
# cxl.sh - on cxl (tests/vm/lib.sh): a CXL type-3 expander, its CDAT from
# the file given to QEMU (/etc/pagehop-cxl.cdat, figures VM_CXL_CDAT_FIG:
# read and write latency in ns, read and write bandwidth in MB/s), a
# generic port and a QTG _DSM from the table upgrade.  The guest makes
# its persistent memory a region, a devdax namespace and system RAM, as
# cxl, ndctl and daxctl do on a real machine; then pagehop info must name
# the memdev, its endpoint, host bridge and node, read the CDAT as the
# file holds it and the kernel's access coordinates as sysfs shows them.
# Timings under TCG mean nothing: tables and placement only.
. /tests/tap.sh
. /tests/cxl_lib.sh
plan 11
cxlbus=/sys/bus/cxl/devices
# shellcheck disable=SC2086 # four figures
set -- $VM_CXL_CDAT_FIG
rd_lat=$1 wr_lat=$2 rd_bw=$3 wr_bw=$4
set -- $VM_CXL_GP_LAT
gp_lat=$1

missing=$(cxl_missing)
if [ -n "$missing" ]; then
	for t in "table upgrade" memdev "CDAT bytes" "CPU-less node" "info memdev" qos_class \
		"CDAT fields" "node coordinates" "region coordinates" "coordinates by hand" \
		"firmware findings"; do
		skip "$t" "missing in the guest:$missing (scripts/install-deps.sh check installs ndctl, daxctl)"
	done
	exit 0
fi
cxl_load

up=$(dmesg | grep -c -E 'Table Upgrade: (override \[(SRAT|HMAT)|install \[SSDT-PAGEHP)')
[ "$up" -eq 3 ] && ok "the kernel took the upgraded SRAT and HMAT (generic port) and the QTG SSDT" ||
	not_ok "table upgrade" "$(dmesg | grep -i 'table upgrade')"

# The memdev and its endpoint.
ep=
cxl_wait_endpoints 1
for e in $cxlbus/endpoint*; do
	[ -e "$e/uport" ] && [ "$(basename "$(readlink "$e/uport")")" = mem0 ] && ep=$(basename "$e")
done
[ -n "$ep" ] && ok "mem0 and its $ep appear on the CXL bus" ||
	not_ok "memdev" "$(ls $cxlbus 2>&1; dmesg | grep -i cxl | tail -n 20)"

if [ -n "$ep" ] && cmp /etc/pagehop-cxl.cdat $cxlbus/$ep/CDAT >/tmp/cmp 2>&1; then
	ok "$ep/CDAT is the file given to QEMU, byte for byte ($(wc -c </etc/pagehop-cxl.cdat) bytes)"
else
	not_ok "CDAT bytes" "$(cat /tmp/cmp; od -A d -t x1 $cxlbus/$ep/CDAT 2>&1 | head -n 12)"
fi

# Region, devdax namespace, system RAM; the CPU-less node with memory.
cxl_online -m -t pmem -d decoder0.0 -w 1 mem0 -s 256M
cxl_cpuless_node
# Its memory against its memory blocks: the 256 MiB region less the
# namespace's info block, onlined in whole blocks.
bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
nb=$(ls -d /sys/devices/system/memory/memory*/node"$node" 2>/dev/null | wc -l)
if [ -n "$node" ] && [ "$kb" -gt 0 ] && [ "$kb" -le $((256 * 1024)) ] && [ "$kb" -eq $((nb * bs / 1024)) ]; then
	ok "the expander's region is online as CPU-less node $node: $kb kB, $nb memory block(s) of $((bs >> 20)) MiB"
else
	not_ok "CPU-less node" "node '$node' $kb kB, $nb blocks of $bs; $(for d in /sys/devices/system/node/node*; do
		echo "$d cpus=[$(cat $d/cpulist)] $(grep MemTotal $d/meminfo)"; done; tail -n 30 $log)"
fi
diag "$(cxl list -M -R -u 2>&1 | tr -s ' \n' ' ')"

pagehop info --format json >/tmp/info.json 2>/tmp/info.err
mem() { jq -r ".cxl_memdevs[] | select(.memdev == \"mem0\") | .$1" /tmp/info.json 2>/dev/null; }
got="$(mem endpoint) $(mem host_bridge) $(mem regions) $(mem nodes)"
want="$ep $VM_CXL_HOST_BRIDGE $region $node"
[ "$got" = "$want" ] && ok "pagehop info: mem0 with $ep, host bridge, $region, on node $node: $got" ||
	not_ok "info memdev" "pagehop: $got; sysfs and by hand: $want; $(cat /tmp/info.err)"

q=$cxlbus/mem0/pmem/qos_class
got=$(mem pmem_qos_class)
if [ -r $q ]; then
	[ "$got" = "$(cat $q)" ] && ok "pmem qos_class as sysfs has it: $got" ||
		not_ok "qos_class" "pagehop: $got; sysfs: $(cat $q)"
else
	[ "$got" = null ] && ok "no $q, and pagehop shows none" || not_ok "qos_class" "no $q, pagehop: $got"
fi

# The CDAT field by field: what pagehop parsed against what was written.
cd_row() { jq -r ".cxl_cdat[] | select(.memdev == \"mem0\" and .structure == \"$1\"$2) | .$3" /tmp/info.json; }
got="$(mem cdat_parsed) $(mem cdat_bytes) $(cd_row DSMAS '' dpa_length)"
for t in read_latency write_latency read_bandwidth write_bandwidth; do
	got="$got $(cd_row DSLBIS " and .data_type == \"$t\"" value)"
done
want="true $(wc -c </etc/pagehop-cxl.cdat) $((VM_CXL_MIB << 20)) $rd_lat $wr_lat $rd_bw $wr_bw"
[ "$got" = "$want" ] && ok "CDAT as pagehop parsed it: parsed, bytes, DSMAS length, 4 DSLBIS: $got" ||
	not_ok "CDAT fields" "pagehop: $got; written: $want; $(jq -c .cxl_cdat /tmp/info.json)"

# coords OF DIR: "access lat lat bw bw" per access class, from cat and from pagehop.
coords_cat() {
	for a in 0 1; do
		[ -d "$1/access$a" ] || continue
		printf '%s' "$a"
		for f in read_latency write_latency read_bandwidth write_bandwidth; do
			printf ' %s' "$(cat "$1/access$a$2/$f")"
		done
		echo
	done
}
coords_info() {
	jq -r ".cxl_access[] | select(.of == \"$1\") |
		\"\(.access) \(.read_lat_ns) \(.write_lat_ns) \(.read_bw_MBps) \(.write_bw_MBps)\"" /tmp/info.json
}
want=$(coords_cat /sys/devices/system/node/node$node /initiators)
got=$(coords_info "node$node")
[ -n "$want" ] && [ "$got" = "$want" ] &&
	ok "node $node's access coordinates as sysfs shows them: $(echo $got)" ||
	not_ok "node coordinates" "pagehop: $got; sysfs: $want"

rwant=$(coords_cat $cxlbus/$region)
rgot=$(coords_info "$region")
[ -n "$rwant" ] && [ "$rgot" = "$rwant" ] &&
	ok "$region's access coordinates as sysfs shows them: $(echo $rgot)" ||
	not_ok "region coordinates" "pagehop: $rgot; sysfs: $rwant"

# By hand: the kernel adds the generic port's HMAT latency (from initiator
# 0) and the link's to the CDAT's, so access0 is at least CDAT + port; and
# it gives the node that holds the region the region's coordinates
# (drivers/cxl/core/region.c, node_set_perf_attrs()).
# shellcheck disable=SC2046 # five words
set -- $(echo "$rgot" | head -n 1)
if [ "${1:-}" = 0 ] && [ "$2" -ge $((rd_lat + gp_lat)) ] && [ "$3" -ge $((wr_lat + gp_lat)) ] &&
	[ "$want" = "$rwant" ]; then
	ok "access0 latencies $2/$3 ns: CDAT $rd_lat/$wr_lat + generic port $gp_lat + the link; node $node's are $region's"
else
	not_ok "coordinates by hand" "access0: $rgot; want at least $((rd_lat + gp_lat))/$((wr_lat + gp_lat)); node $node: $want"
fi
# The SRAT (with the generic port the upgrade added) and QEMU's CEDT were
# both read, and what they and the CDAT say has no error: the port names
# the host bridge the CEDT describes, the window is one Linux takes, and
# the CDAT file given to QEMU is sound.
got=$(jq -r '[(.acpi_cxl_findings // null | type), ([.acpi_cxl_findings[]?, .cxl_cdat_findings[]? | select(.severity == "error")] | length),
	([.acpi_cxl_findings[]? | select(.finding | test("no SRAT generic port"))] | length)] | map(tostring) | join(" ")' /tmp/info.json)
[ "$got" = "array 0 0" ] && ok "pagehop info read the SRAT and CEDT: no error in them or the CDAT, the generic port's bridge in the CEDT" ||
	not_ok "firmware findings" "pagehop: $got; $(jq -c '.acpi_cxl_findings, .cxl_cdat_findings' /tmp/info.json)"
diag "setup log: $(grep -c '^\$' $log) commands, failed: $(grep -B1 -E '^\[rc=[1-9]' $log | grep '^\$' | tr '\n' ';')"
pagehop info 2>&1 | awk '/^CXL/ {on=1} /^note: CXL/ {on=1} on' | sed 's/^/# /'
