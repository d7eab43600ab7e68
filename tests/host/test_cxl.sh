# SPDX-License-Identifier: GPL-2.0-only
# test_cxl.sh PAGEHOP - pagehop cxl.  On this machine (no CXL memory node
# here, else that part skips): exit 4 with the reason, nothing on stdout.
# Then the test build (BUILD/test/pagehop, PAGEHOP_CXL_ROOT) on a sysfs
# (lib.sh's cxl_tree, and more) and ACPI tables laid out here as Linux 6.12 lays them out for one type-3
# device on a root port (as on pagehop's CXL guest):
#   CDAT     one range, read/write latency 150/250 ns, bandwidth 12000/8000;
#   link     2.5 GT/s x1 (the port above too): 68 x 10^6 / 312 = 217948 ps,
#            218 ns; 2500 / 8 = 312 MB/s;
#   SRAT     generic port _UID 12, domain 4; HMAT from initiators 0 and 1 to
#            it: 50 and 100 ns, 30000 and 15000 MB/s: the best 50, 30000;
#   kernel   node 2 access0 418 518 312 312 (150 + 218 + 50 ...: adds up),
#            access1 read latency 500 (82 above the composition).
. "$(dirname "$0")/lib.sh"
hooked=$(dirname "$PAGEHOP")/test/pagehop

if [ -d /sys/bus/cxl/devices ] && ls /sys/bus/cxl/devices/region* >/dev/null 2>&1; then
	echo "this machine has CXL regions: the exit-4 check is for a machine without"
else
	"$PAGEHOP" cxl >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect "no CXL memory node: exit 4 ($(cat "$TMP/err"))" "$rc" 4
	expect "no CXL memory node: nothing on stdout" "$(wc -c <"$TMP/out")" 0
	expect "no CXL memory node: one line naming why" \
		"$(grep -c '^pagehop cxl: no CXL memory node: ' "$TMP/err")" 1
fi

[ -x "$hooked" ] || { fail "no test build $hooked (make all builds it)"; finish; }
command -v python3 >/dev/null || skip_test "python3 missing (it writes the SRAT and HMAT)"
R=$TMP/root
PCI=sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0
PLAT=sys/devices/platform/ACPI0017:00/root0
put() { mkdir -p "$(dirname "$R/$1")" && printf '%s\n' "$2" >"$R/$1"; }
cxl_tree "$R" 2 pmem
put $PCI/mem0/pmem/size 0x20000000
put $PCI/mem0/ram/size 0x0
put $PCI/current_link_speed "2.5 GT/s PCIe"
put $PCI/current_link_width 1
put sys/devices/pci0000:0c/0000:0c:00.0/current_link_speed "2.5 GT/s PCIe"
put sys/devices/pci0000:0c/firmware_node/uid 12
# coords "ACCESS0" "ACCESS1": region0's and node2's access coordinates
# (read, write latency; read, write bandwidth).
coords() {
	local a f i v
	for a in 0 1; do
		[ $a = 0 ] && read -ra v <<<"$1"
		[ $a = 1 ] && read -ra v <<<"$2"
		i=0
		for f in read_latency write_latency read_bandwidth write_bandwidth; do
			put $PLAT/decoder0.0/region0/access$a/$f "${v[$i]}"
			put sys/devices/system/node/node2/access$a/initiators/$f "${v[$i]}"
			i=$((i + 1))
		done
	done
}
coords "418 518 312 312" "500 518 312 312"
put sys/devices/system/node/has_memory 0,2
put sys/devices/system/node/node0/cpulist 0
put sys/devices/system/node/node2/cpulist ""
for f in read_latency write_latency; do put sys/devices/system/node/node0/access1/initiators/$f 80; done
for f in read_bandwidth write_bandwidth; do put sys/devices/system/node/node0/access1/initiators/$f 20480; done
put sys/devices/virtual/memory_tiering/memory_tier4/nodelist 0
put sys/devices/virtual/memory_tiering/memory_tier1878/nodelist 2
put sys/kernel/mm/mempolicy/weighted_interleave/node0 1
put sys/kernel/mm/mempolicy/weighted_interleave/node2 1
mkdir -p "$R/sys/firmware/acpi/tables"
# tables CDAT_FILE "RD WR RBW WBW" "BW0 BW1": a CDAT of one range [0, 512
# MiB) with those figures; the SRAT (generic port _UID 12, domain 4) and the
# HMAT (50 and 100 ns, BW0 and BW1 MB/s from initiators 0 and 1 to it).
tables() {
	python3 - "$R" "$1" $2 $3 <<'PY'
import struct, sys
root, out = sys.argv[1], sys.argv[2]
rd, wr, rbw, wbw, bw0, bw1 = map(int, sys.argv[3:9])
def sub(kind, body):
    return struct.pack('<BBH', kind, 0, 4 + len(body)) + body
def summed(b, at):
    b[at] = 0
    b[at] = (-sum(b)) & 0xff
    return b
# CDAT: DSMAS handle 0 [0, 512 MiB); DSLBIS read/write latency x 1000 ps, bandwidth x 1.
body = sub(0, struct.pack('<BBHQQ', 0, 0, 0, 0, 512 << 20))
for kind, base, e in ((1, 1000, rd), (2, 1000, wr), (4, 1, rbw), (5, 1, wbw)):
    body += sub(1, struct.pack('<BBBBQHHHH', 0, 0, kind, 0, base, e, 0, 0, 0))
cdat = summed(bytearray(struct.pack('<IBB6sI', 16 + len(body), 1, 0, bytes(6), 0)) + body, 5)
open(root + '/' + out, 'wb').write(cdat)
def header(sig, length, rev):
    return struct.pack('<4sIBB6s8sI4sI', sig, length, rev, 0, b'PAGEHP', b'TEST', 1, b'PH  ', 1)
srat = struct.pack('<I8s', 1, bytes(8)) + struct.pack('<BBBBI8sIIII', 6, 32, 0, 0, 4, b'ACPI0016', 12, 0, 1, 0)
srat = summed(bytearray(header(b'SRAT', 36 + len(srat), 3)) + srat, 9)
open(root + '/sys/firmware/acpi/tables/SRAT', 'wb').write(srat)
def lb(data_type, base, entries):
    body = struct.pack('<2I', 0, 1) + struct.pack('<I', 4) + struct.pack('<2H', *entries)
    body += bytes((-len(body)) % 4)
    return struct.pack('<HHIBBBBIIIQ', 1, 0, 32 + len(body), 0, data_type, 0, 0, 2, 1, 0, base) + body
hmat = bytes(4) + lb(0, 1000, (50, 100)) + lb(3, 1, (bw0, bw1))
hmat = summed(bytearray(header(b'HMAT', 36 + len(hmat), 2)) + hmat, 9)
open(root + '/sys/firmware/acpi/tables/HMAT', 'wb').write(hmat)
PY
}
tables $PLAT/port1/endpoint2/CDAT "150 250 12000 8000" "30000 15000"
PAGEHOP_CXL_ROOT=$R "$hooked" cxl --no-measure --format json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
expect "fixture: exit 0 ($(cat "$TMP/err"))" "$rc" 0
row() { jq -r ".cxl_explain[] | select(.access == $1 and .figure == \"$2\") |
	\"\(.device_cdat) \(.link) \(.generic_port) \(.composed) \(.kernel_node) \(.verdict)\"" "$TMP/c.json"; }
expect "access0 read latency: 150 + 218 + 50" "$(row 0 read_latency_ns)" "150 218 50 418 418 adds up"
expect "access0 write latency: 250 + 218 + 50" "$(row 0 write_latency_ns)" "250 218 50 518 518 adds up"
expect "access0 read bandwidth: min(12000, 312, 30000)" "$(row 0 read_bandwidth_MBps)" \
	"12000 312 30000 312 312 adds up"
expect "access0 write bandwidth: min(8000, 312, 30000)" "$(row 0 write_bandwidth_MBps)" \
	"8000 312 30000 312 312 adds up"
expect "access1 read latency: the kernel's 500 is 82 above 418" "$(row 1 read_latency_ns)" \
	"150 218 50 418 500 differs: the kernel's is +82"
expect "the parts: link 217948 ps, 312 MB/s (250 after encoding), DSMAS 0, _UID 12, domain 4" \
	"$(jq -r '.cxl_parts[0] | "\(.link_latency_ps) \(.link_bandwidth_MBps) \(.qos_link_bandwidth_MBps) \(.cdat_dsmas_handle) \(.host_bridge_uid) \(.generic_port_domain)"' "$TMP/c.json")" \
	"217948 312 250 0 12 4"
expect "one figure differs, said in a note" \
	"$(jq -r '[.notes[]? | select(test("1 figure\\(s\\) of the kernel"))] | length' "$TMP/c.json")" 1
# The tiers (node 0 with a CPU: access1 80, 80 ns, 20480, 20480 MB/s, in
# memory_tier4; node 2 in memory_tier1878), by hand: 576 x (500 + 518) /
# 160 = 3664, x 40960 / 624 = 240508, >> 7 = 1878; weights in proportion to
# min(read, write): 32 x 312 / 20792 is below 1: 1 (node 0: 31).
expect "effects: tier now, the one above demoting, distance and tier by hand, weights" \
	"$(jq -r '.cxl_effects[0] | "\(.tier_now) \(.demoted_from) \(.reference_node) \(.adistance) \(.tier) \(.wi_weight_now) \(.wi_weight_bw)"' "$TMP/c.json")" \
	"1878 0 0 240508 1878 1 1"
# That document read back with --input, good.json's measured rows added:
# made in this boot (its provenance's boot_id, /proc/sys/kernel/random/
# boot_id), so the tiers and weights are this machine's, and the effects
# are shown as from the machine; with another boot_id they are not.
b=$(cat /proc/sys/kernel/random/boot_id)
jq --slurpfile g "$PAGEHOP_ROOT/tests/data/cxl/good.json" '. + {cxl_measured: $g[0].cxl_measured}' "$TMP/c.json" >"$TMP/same.json"
expect "the document's boot_id is this boot's" "$(jq -r .provenance.boot_id "$TMP/same.json")" "$b"
PAGEHOP_CXL_ROOT=$R "$hooked" cxl --input "$TMP/same.json" --noise 0.5 --format json >"$TMP/s.json" 2>"$TMP/err"
expect "--input of this boot's document: the same effects as from the machine" \
	"$(jq -r '.cxl_effects[0] | "\(.tier_now) \(.demoted_from) \(.reference_node) \(.adistance) \(.tier) \(.wi_weight_now) \(.wi_weight_bw)"' "$TMP/s.json")" \
	"1878 0 0 240508 1878 1 1"
expect "--input of this boot's document: a note says why the effects are shown" \
	"$(jq -r "[.notes[] | select(test(\"made in this boot of it \\\\(boot_id $b\\\\)\"))] | length" "$TMP/s.json")" 1
jq '.provenance.boot_id = "00000000-0000-0000-0000-000000000000"' "$TMP/same.json" >"$TMP/other.json"
PAGEHOP_CXL_ROOT=$R "$hooked" cxl --input "$TMP/other.json" --noise 0.5 --format json >"$TMP/s.json" 2>"$TMP/err"
expect "--input of another boot's document: no effects, and a note says why" \
	"$(jq -r '[(.cxl_effects // [] | length), ([.notes[] | select(test("not made in this boot of it \\(another boot_id\\): not shown"))] | length)] | join(" ")' "$TMP/s.json")" "0 1"

# Without the tables: the generic port's part is unknown, the figures cannot be told.
rm "$R/sys/firmware/acpi/tables/SRAT"
PAGEHOP_CXL_ROOT=$R "$hooked" cxl --no-measure --format json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
expect "no SRAT: exit 0 ($(cat "$TMP/err"))" "$rc" 0
expect "no SRAT: cannot tell, naming the generic port" "$(row 0 read_latency_ns | cut -d' ' -f4-)" \
	"null 418 cannot tell: no generic port figure"

# Interleaved over two devices: mem1 on the bridge's second root port
# (0c:01.0), CDAT 300/400 ns, 6000/4000 MB/s, the same link; region0 2 ways;
# the generic port's bandwidth now 500 and 400 MB/s (the best 500).  By
# hand: mem0 150 + 218 + 50 = 418, 518, min(12000, 312, 500) = 312; mem1
# 300 + 218 + 50 = 568, 668, 312.  The region: the worst latency, 568 and
# 668; bandwidth min(12000, 312) + min(6000, 312) = 624, min(624, 500) =
# 500.  The kernel's access0 adds up; its access1 bandwidth 624 is the
# devices' own figures summed, 124 above.
PCI1=sys/devices/pci0000:0c/0000:0c:01.0/0000:0e:00.0
put $PCI1/mem1/pmem/size 0x20000000
put $PCI1/mem1/ram/size 0x0
put $PCI1/current_link_speed "2.5 GT/s PCIe"
put $PCI1/current_link_width 1
put sys/devices/pci0000:0c/0000:0c:01.0/current_link_speed "2.5 GT/s PCIe"
cxl_tree "$R" 2 pmem 2
tables $PLAT/port1/endpoint3/CDAT "300 400 6000 4000" "500 400"
coords "568 668 500 500" "568 668 624 624"
PAGEHOP_CXL_ROOT=$R "$hooked" cxl --no-measure --format json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
expect "interleaved: exit 0 ($(cat "$TMP/err"))" "$rc" 0
irow() { jq -r ".cxl_explain[] | select(.memdev == \"$1\" and .access == $2 and .figure == \"$3\") |
	\"\(.device_cdat) \(.link) \(.generic_port) \(.composed) \(.kernel_node) \(.verdict)\"" "$TMP/c.json"; }
expect "interleaved: mem0's path, read latency 150 + 218 + 50" "$(irow mem0 0 read_latency_ns)" \
	"150 218 50 418 null one device's path: the region's row composes them"
expect "interleaved: mem1's path, read latency 300 + 218 + 50" "$(irow mem1 0 read_latency_ns)" \
	"300 218 50 568 null one device's path: the region's row composes them"
expect "interleaved: mem1's path, read bandwidth min(6000, 312, 500)" "$(irow mem1 0 read_bandwidth_MBps)" \
	"6000 312 500 312 null one device's path: the region's row composes them"
expect "interleaved: the region's read latency, the worst device's" "$(irow mem0,mem1 0 read_latency_ns)" \
	"null null null 568 568 adds up"
expect "interleaved: the region's write latency, the worst device's" "$(irow mem0,mem1 0 write_latency_ns)" \
	"null null null 668 668 adds up"
expect "interleaved: the region's read bandwidth, min(312 + 312, 500)" "$(irow mem0,mem1 0 read_bandwidth_MBps)" \
	"null null null 500 500 adds up"
expect "interleaved: a kernel figure of the devices' own summed, said so" "$(irow mem0,mem1 1 read_bandwidth_MBps)" \
	"null null null 500 624 differs: the kernel's is +124, the devices' own figures summed (its shared-upstream pass left out)"
expect "interleaved: the parts, one row per device (memdev, link ps, MB/s, _UID, domain)" \
	"$(jq -r '[.cxl_parts[] | "\(.memdev) \(.link_latency_ps) \(.link_bandwidth_MBps) \(.host_bridge_uid) \(.generic_port_domain)"] | join(", ")' "$TMP/c.json")" \
	"mem0 217948 312 12 4, mem1 217948 312 12 4"
cp "$TMP/c.json" "$TMP/il.json"
"$PAGEHOP" cxl --input "$TMP/il.json" --format json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
expect "interleaved, read back with --input: exit 0 ($(cat "$TMP/err"))" "$rc" 0
expect "interleaved, read back: cannot tell, the devices' rows no path of the node's" \
	"$(jq -r '[.cxl_explain[] | .verdict] | unique | join(";")' "$TMP/c.json")" \
	"cannot tell: interleaved over several devices: one measurement cannot be split between their paths"
jq . "$TMP/il.json" >"$TMP/c.json"
expect "interleaved: two figures differ, said in a note" \
	"$(jq -r '[.notes[]? | select(test("2 figure\\(s\\) of the kernel"))] | length' "$TMP/c.json")" 1

# --input: saved documents (tests/data/cxl), judged offline.  Each entry
# against what the measurement implies for it, by hand: the best latency
# 418 ns (CPU node 0) less the other parts: CDAT 418 - 218 - 50 = 150, the
# port's 418 - 150 - 218 = 50; bandwidth hidden behind the link's 312 MB/s.
D=$PAGEHOP_ROOT/tests/data/cxl
judge() { "$PAGEHOP" cxl --input "$D/$1" --format json "${@:2}" >"$TMP/j.json" 2>"$TMP/err"; echo $?; }
entry() { jq -r ".cxl_judge[] | select(.source == \"$1\" and (.entry | startswith(\"$2\"))) |
	\"\(.implied) \(.verdict)\"" "$TMP/j.json"; }
expect "good.json --noise 0.5: exit 0 ($(cat "$TMP/err"))" "$(judge good.json --noise 0.5)" 0
expect "good.json: the CDAT's read latency agrees (implied 150)" "$(entry "device CDAT" "DSLBIS read_latency")" "150 agrees"
expect "good.json: the port's read latency agrees (implied 50)" "$(entry "generic port" "HMAT read_latency")" "50 agrees"
expect "good.json: the CDAT's read bandwidth cannot show behind the link" \
	"$(jq -r '.cxl_judge[] | select(.entry | startswith("DSLBIS read_bandwidth")) | "\(.verdict): \(.why)"' "$TMP/j.json")" \
	"not seen: another part binds at 312 MB/s"
expect "good.json: write figures are not seen" \
	"$(jq -r '[.cxl_judge[] | select(.figure | startswith("write")) | .verdict] | unique | join(",")' "$TMP/j.json")" "not seen"
# Its own output read back: the same verdicts.
cp "$TMP/j.json" "$TMP/again.json"
"$PAGEHOP" cxl --input "$TMP/again.json" --noise 0.5 --format json >"$TMP/j2.json" 2>"$TMP/err"
rc=$?
expect "its own JSON read back: exit 0 ($(cat "$TMP/err"))" "$rc" 0
expect "its own JSON read back: the same judgement" "$(jq -c .cxl_judge "$TMP/j2.json")" "$(jq -c .cxl_judge "$TMP/j.json")"
expect "cdat_read_5x.json: exit 1" "$(judge cdat_read_5x.json --noise 0.5)" 1
expect "cdat_read_5x.json: the CDAT's read latency is off, 750 where 150 is implied" \
	"$(entry "device CDAT" "DSLBIS read_latency")" "150 OFF"
expect "cdat_read_5x.json: a note names the entry and its source" \
	"$(jq -r '[.notes[] | select(test("device CDAT DSLBIS read_latency_ns \\(DSMAS 0\\) is off"))] | length' "$TMP/j.json")" 1
expect "cdat_read_5x.json: the port cannot be the one (the rest exceeds the measurement)" \
	"$(entry "generic port" "HMAT read_latency" | cut -d' ' -f2-)" "CANNOT TELL"
expect "no_ci.json (rows without a CI), --noise 0.5: exit 0" "$(judge no_ci.json --noise 0.5)" 0
# At the default 2.5% noise the port's 50 ns is 2.5% of 418 ns: 21% of 50, beyond the 15% tolerance.
expect "no_ci.json, default noise: exit 5 (cannot tell)" "$(judge no_ci.json)" 5
expect "no_ci.json, default noise: the port's latency cannot be told" "$(entry "generic port" "HMAT read_latency")" "50 CANNOT TELL"
expect "ci_missed.json: exit 5" "$(judge ci_missed.json --noise 0.5)" 5
expect "ci_missed.json: cannot tell, the CI missed" \
	"$(jq -r '.cxl_judge[] | select(.entry | startswith("DSLBIS read_latency")) | .why' "$TMP/j.json")" \
	"the measurement missed its CI target"
usage_error "--input of a file that is not JSON" cxl --input "$PAGEHOP_ROOT/README.md"
echo '{"command": "matrix"}' >"$TMP/other.json"
usage_error "--input of a JSON without cxl_explain" cxl --input "$TMP/other.json"
echo '{"cxl_explain": [{"node": 2, "access": 3, "figure": "read_latency_ns"}]}' >"$TMP/bad.json"
usage_error "--input with access 3" cxl --input "$TMP/bad.json"
usage_error "--tolerance out of range" cxl --tolerance -1
usage_error "--emit-cdat with --input but no --cdat (a document carries no CDAT)" cxl --input "$D/good.json" --emit-cdat "$TMP/x.cdat"
usage_error "--cdat without --emit-cdat" cxl --input "$D/good.json" --cdat "$TMP/x.cdat"
usage_error "--cdat without --input" cxl --emit-cdat "$TMP/x.cdat" --cdat "$TMP/x.cdat"
usage_error "--emit-cdat with --no-measure" cxl --no-measure --emit-cdat "$TMP/x.cdat"
usage_error "--emit-cdat into a directory that does not exist" cxl --emit-cdat "$TMP/no/such/x.cdat"
expect "--emit-cdat refused: nothing written" "$(ls "$TMP"/x.cdat 2>/dev/null | wc -l)" 0
# --emit-cdat from a saved document and the device's CDAT (--cdat): the
# file made here by the guest's own writer (tests/vm/cxl_tables.py), read
# back byte by byte with od, not by pagehop.  cdat_read_5x.json was judged
# with a read latency of 750 ns where 150 is implied: the file comes back
# with only that entry (u16 at offset 56, bytes 57-58: 750 is 0x02ee, 150
# 0x0096) and the checksum (byte 6) changed, its bytes summing to 0, its
# length field its size.  good.json, judged with 150, gives its file back
# byte for byte.  A CDAT whose figures are not the document's is refused.
if command -v python3 >/dev/null; then
	python3 "$PAGEHOP_ROOT/tests/vm/cxl_tables.py" cdat "$TMP/d750.cdat" 256 750 250 12000 8000
	python3 "$PAGEHOP_ROOT/tests/vm/cxl_tables.py" cdat "$TMP/d150.cdat" 256 150 250 12000 8000
	"$PAGEHOP" cxl --input "$D/cdat_read_5x.json" --noise 0.5 --cdat "$TMP/d750.cdat" \
		--emit-cdat "$TMP/p.cdat" --format json >"$TMP/e.json" 2>"$TMP/err"
	rc=$?
	expect "--input cdat_read_5x.json --cdat --emit-cdat: exit 1, the entry off ($(cat "$TMP/err"))" "$rc" 1
	expect "--emit-cdat from a document: only the checksum and the read latency entry changed" \
		"$(cmp -l "$TMP/d750.cdat" "$TMP/p.cdat" | awk '{print $1}' | tr '\n' ' ')" "6 57 58 "
	expect "--emit-cdat from a document: the read latency entry 150 (x 1000 ps)" \
		"$(od -A n -t u2 -j 56 -N 2 "$TMP/p.cdat" | tr -d ' ') $(od -A n -t u8 -j 48 -N 8 "$TMP/p.cdat" | tr -d ' ')" "150 1000"
	expect "--emit-cdat from a document: its bytes sum to 0, its length field is its size" \
		"$(od -A n -t u1 -v "$TMP/p.cdat" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s % 256 }') $(od -A n -t u4 -N 4 "$TMP/p.cdat" | tr -d ' ')" \
		"0 $(stat -c %s "$TMP/p.cdat")"
	expect "--emit-cdat from a document: a note names the file it rewrote" \
		"$(jq -r '[.notes[] | select(test("mem0.s CDAT as in .*d750.cdat with 1 DSLBIS entry from the measurement"))] | length' "$TMP/e.json")" 1
	"$PAGEHOP" cxl --input "$D/good.json" --noise 0.5 --cdat "$TMP/d150.cdat" --emit-cdat "$TMP/g.cdat" >/dev/null 2>"$TMP/err"
	rc=$?
	expect "--input good.json --cdat --emit-cdat: exit 0 ($(cat "$TMP/err"))" "$rc" 0
	cmp -s "$TMP/d150.cdat" "$TMP/g.cdat" && pass "--emit-cdat from good.json: the file given, byte for byte" ||
		fail "--emit-cdat from good.json: bytes $(cmp -l "$TMP/d150.cdat" "$TMP/g.cdat" | awk '{print $1}' | tr '\n' ' ')changed"
	"$PAGEHOP" cxl --input "$D/cdat_read_5x.json" --cdat "$TMP/d150.cdat" --emit-cdat "$TMP/n.cdat" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ ! -e "$TMP/n.cdat" ] &&
		grep -q "^pagehop cxl: --cdat .*d150.cdat: its read_latency_ns is 150, the document's device CDAT says 750" "$TMP/err" &&
		pass "--cdat not the document's: exit 2, nothing written: $(cat "$TMP/err")" ||
		fail "--cdat not the document's: exit $rc, $(cat "$TMP/err")"
	head -c 30 "$TMP/d750.cdat" >"$TMP/short.cdat"
	usage_error "--cdat of a truncated CDAT" cxl --input "$D/cdat_read_5x.json" --cdat "$TMP/short.cdat" --emit-cdat "$TMP/n.cdat"
else
	pass "--emit-cdat from a document: not checked, no python3 to write the CDAT"
fi
# --emit-hmat from good.json: the generic port's entries, by hand: 418 -
# 150 - 218 = 50 ns from CPU node 0 (5000 x 10 ps), 468 - 150 - 218 = 100
# ns from CPU node 1 (10000 x 10); bandwidth behind the link's 312 MB/s
# cannot show, so the port's 30000 MB/s is kept for both (x 1).
H=$TMP/gp.asl
"$PAGEHOP" cxl --input "$D/good.json" --noise 0.5 --emit-hmat "$H" --format json >"$TMP/h.json" 2>"$TMP/err"
rc=$?
expect "--emit-hmat good.json: exit 0 ($(cat "$TMP/err"))" "$rc" 0
expect "--emit-hmat: the comment derives 50 ns from the measurement from CPU node 0" \
	"$(grep -c 'initiator 0 to domain 4 (node 2): 50.00 ns = the read latency measured from CPU node 0, 418.00 ns \[CI 417.50, 418.50\], less the device CDAT.s 150 ns (DSMAS 0) and the link.s 218 ns' "$H")" 1
expect "--emit-hmat: the comment says the port's bandwidth is the firmware's best, for every initiator" \
	"$(grep -c "30000 MB/s, the firmware's best over initiators .*given to every initiator, whatever its own entry says: the link's 312 MB/s binds below it" "$H")" 2
expect "--emit-hmat: no CI missed in good.json, none said" "$(grep -c MISSED "$H")" 0
expect "--emit-hmat without a firmware HMAT: the header says the table is not complete, and why" \
	"$(grep -c "NOT A COMPLETE HMAT: the firmware's could not be read (a saved document (--input) does not carry it; give it with --hmat-table)" "$H")" 1
expect "--emit-hmat without a firmware HMAT: a note says so" \
	"$(jq -r '[.notes[] | select(test("NOT a complete HMAT, the generic ports. entries only"))] | length' "$TMP/h.json")" 1
"$PAGEHOP" cxl --input "$D/ci_missed.json" --noise 0.5 --emit-hmat "$TMP/missed.asl" >/dev/null 2>"$TMP/err"
expect "--emit-hmat ci_missed.json: the comment says the CI was missed" \
	"$(grep -c 'MISSED its CI target' "$TMP/missed.asl")" 1
# No port latency implied (the CDAT's 750 and the link's 218 exceed 418): exit 1, nothing written.
"$PAGEHOP" cxl --input "$D/cdat_read_5x.json" --emit-hmat "$TMP/no.asl" >/dev/null 2>"$TMP/err"
expect "--emit-hmat cdat_read_5x.json: exit 1" "$?" 1
expect "--emit-hmat cdat_read_5x.json: one line naming why" \
	"$(grep -c '^pagehop cxl: --emit-hmat: node 2 from CPU node 0: the device CDAT.s 750 ns and the link.s 218 ns alone exceed' "$TMP/err")" 1
expect "--emit-hmat refused: nothing written" "$(ls "$TMP"/no.asl 2>/dev/null | wc -l)" 0
usage_error "--emit-hmat with --no-measure" cxl --no-measure --emit-hmat "$TMP/x.asl"
usage_error "--hmat-table without --emit-hmat" cxl --input "$D/good.json" --hmat-table "$TMP/none"
usage_error "--hmat-table that does not exist" cxl --input "$D/good.json" --emit-hmat "$TMP/x.asl" --hmat-table "$TMP/none"
usage_error "--hmat-table that is not an HMAT" cxl --input "$D/good.json" --emit-hmat "$TMP/x.asl" --hmat-table "$PAGEHOP_ROOT/README.md"
usage_error "--emit-hmat into a directory that does not exist" cxl --input "$D/good.json" --emit-hmat "$TMP/no/such/x.asl"
expect "--emit-hmat refused: nothing written" "$(ls "$TMP"/x.asl 2>/dev/null | wc -l)" 0
if ! command -v iasl >/dev/null; then
	skip_test "iasl missing (acpica-tools): the --emit-hmat source was not compiled"
fi
(cd "$TMP" && iasl gp.asl) >"$TMP/iasl.log" 2>&1 && [ -s "$TMP/gp.aml" ] &&
	pass "iasl compiles the generic port's HMAT" || fail "iasl: $(tail -n 5 "$TMP/iasl.log")"
# Read back by pagehop's own HMAT parser (slit --hmat-table reads the .aml).
"$PAGEHOP" slit --input "$PAGEHOP_ROOT/tests/data/slit/matrix-4node-cxl.json" --hmat-table "$TMP/gp.aml" \
	--format json >"$TMP/b.json" 2>"$TMP/b.err"
expect "parsed back: the generic port's entries equal the hand-computed ones" \
	"$(jq -r '[.hmat_table_entries[] | "\(.data_type) \(.initiator)>\(.target)=\(.entry)x\(.base_unit)"] | join(", ")' "$TMP/b.json")" \
	"access_latency 0>4=5000x10, access_latency 1>4=10000x10, access_bandwidth 0>4=30000x1, access_bandwidth 1>4=30000x1"
expect "parsed back: no memory domain made up for the port" \
	"$(jq -r '.hmat_table_domains | length' "$TMP/b.json")" 0

# The whole HMAT: a firmware table with DRAM (domain 0) and the port
# (domain 4) from initiators 0 and 1, carried over with the port's entries
# replaced.  By hand: access latency under base 100 ps, the firmware's 800,
# 400, 1300, 900 (0>0, 0>4, 1>0, 1>4); the port's 50 and 100 ns become
# 50000 / 100 = 500 and 1000.  Write latency (flags 0x10, minimum transfer
# 64) carried whole.  Access bandwidth under base 10 MB/s, 2048, 3000, 1024,
# 1500: the port's 30000 MB/s for both is 3000.  A domain and a cache with
# SMBIOS handles 0x11, 0x22 carried.  The .aml after its 36-byte header
# differs from the firmware's in the replaced entries only: 0>4 latency at
# byte 80 + 48 + 2 = 130 (400 = 0x190 to 500 = 0x1F4: the low byte), 1>4
# at 134 (900 = 0x384 to 1000 = 0x3E8), 1>4 bandwidth at 192 + 48 + 6 =
# 246 and 247 (1500 = 0x5DC to 3000 = 0xBB8); 0>4 bandwidth stays 3000.
python3 - "$TMP/fw.hmat" <<'PY'
import struct, sys
def lb(data_type, base, entries, flags=0, mts=0):
    body = struct.pack('<2I', 0, 1) + struct.pack('<2I', 0, 4) + struct.pack('<4H', *entries)
    return struct.pack('<HHIBBBBIIIQ', 1, 0, 32 + len(body), flags, data_type, mts, 0, 2, 2, 0, base) + body
body = bytes(4) + struct.pack('<HHIHHIIIQQ', 0, 0, 40, 1, 0, 0, 0, 0, 0, 0)
body += lb(0, 100, (800, 400, 1300, 900)) + lb(2, 1000, (80, 60, 130, 110), 0x10, 64)
body += lb(3, 10, (2048, 3000, 1024, 1500))
body += struct.pack('<HHIIIQIHH2H', 2, 0, 36, 0, 0, 1 << 30, 0x00401111, 0, 2, 0x11, 0x22)
t = bytearray(struct.pack('<4sIBB6s8sI4sI', b'HMAT', 36 + len(body), 2, 0, b'PAGEHP', b'TEST', 1, b'PH  ', 1) + body)
t[9] = (-sum(t)) & 0xff
open(sys.argv[1], 'wb').write(t)
PY
W=$TMP/whole.asl
"$PAGEHOP" cxl --input "$D/good.json" --noise 0.5 --emit-hmat "$W" --hmat-table "$TMP/fw.hmat" \
	--format json >"$TMP/w.json" 2>"$TMP/err"
rc=$?
expect "--emit-hmat --hmat-table: exit 0 ($(cat "$TMP/err"))" "$rc" 0
expect "--emit-hmat --hmat-table: 4 entries replaced, 8 carried, none added" \
	"$(jq -r '.acpi_hmat | "\(.entries_replaced) \(.entries_carried) \(.entries_added)"' "$TMP/w.json")" "4 8 0"
expect "--emit-hmat --hmat-table: each replaced entry says what it stands for" \
	"$(grep -c 'Entry : 01F4    /\* replaced: 50.00 ns from initiator 0 to domain 4, derived above \*/' "$W") $(grep -c 'Entry : 0BB8    /\* replaced: 30000 MB/s from initiator 1 to domain 4' "$W")" "1 1"
expect "--emit-hmat --hmat-table: each carried entry and structure says so" \
	"$(grep -c 'Entry : .*/\* as the firmware had it \*/' "$W") $(grep -c 'Structure Type : 000[02] .*/\* as the firmware had it \*/' "$W")" "8 2"
(cd "$TMP" && iasl whole.asl) >"$TMP/iasl.log" 2>&1 && [ -s "$TMP/whole.aml" ] &&
	pass "iasl compiles the whole HMAT" || fail "iasl: $(tail -n 5 "$TMP/iasl.log")"
expect "the whole HMAT: byte for byte the firmware's after the header but for the replaced entries" \
	"$(python3 -c 'import sys; a, b = (open(p, "rb").read() for p in sys.argv[1:]); print(len(a) == len(b), *[i for i in range(36, min(len(a), len(b))) if a[i] != b[i]])' "$TMP/fw.hmat" "$TMP/whole.aml")" \
	"True 130 134 246 247"
"$PAGEHOP" slit --input "$PAGEHOP_ROOT/tests/data/slit/matrix-4node-cxl.json" --hmat-table "$TMP/whole.aml" \
	--format json >"$TMP/b.json" 2>"$TMP/b.err"
expect "the whole HMAT parsed back: every entry, the port's as computed by hand" \
	"$(jq -r '[.hmat_table_entries[] | "\(.data_type) \(.initiator)>\(.target)=\(.entry)x\(.base_unit)"] | join(", ")' "$TMP/b.json")" \
	"access_latency 0>0=800x100, access_latency 0>4=500x100, access_latency 1>0=1300x100, access_latency 1>4=1000x100, write_latency 0>0=80x1000, write_latency 0>4=60x1000, write_latency 1>0=130x1000, write_latency 1>4=110x1000, access_bandwidth 0>0=2048x10, access_bandwidth 0>4=3000x10, access_bandwidth 1>0=1024x10, access_bandwidth 1>4=3000x10"
finish
