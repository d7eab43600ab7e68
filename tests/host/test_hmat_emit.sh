# SPDX-License-Identifier: GPL-2.0-only
# test_hmat_emit.sh - "pagehop slit --emit-hmat": the HMAT proposed from a
# saved measurement (tests/data/slit/matrix-4node-cxl.json, 4 CPU nodes and
# a CPU-less node 4) with the OEM IDs of a firmware HMAT
# (tests/data/hmat/qemu-4node-odd.hmat: "BOCHS ", "BXPCHMAT", revision 1),
# compiled by iasl, and read back two ways that do not trust the writer:
# pagehop's own HMAT parser (--hmat-table on the .aml) and iasl's
# disassembly.  The entries must equal the measurement, in ps and MB/s.
. "$(dirname "$0")/lib.sh"

ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
IN=$ROOT/tests/data/slit/matrix-4node-cxl.json
FW=$ROOT/tests/data/hmat/qemu-4node-odd.hmat

"$PAGEHOP" slit --input "$IN" --hmat-table "$FW" --emit-hmat "$TMP/h.asl" --format json \
	>"$TMP/p.json" 2>"$TMP/p.err"
expect "emit-hmat: exit is the verdict's" "$?" 0
jq -e . "$TMP/p.json" >/dev/null 2>&1 || fail "output is not JSON: $(head -c 300 "$TMP/p.err")"
j() { jq -r "$1" "$TMP/p.json"; }
expect "OEM ID of the firmware's HMAT" "$(j .acpi_hmat.oem_id)" "BOCHS "
expect "OEM table ID" "$(j .acpi_hmat.oem_table_id)" BXPCHMAT
expect "OEM revision raised by one" "$(j .acpi_hmat.oem_revision)" 2
expect "4 x 5 latency and 4 x 5 bandwidth entries" "$(j '.proposed_hmat | length')" 40
# The proposal against the input itself (second path: the saved matrices).
want=$(jq -r '[(.latency_ns.values[][] | . * 1000 / 10 | round), (.bandwidth_read_GBps.values[][] | . * 1000 | round)] | map(tostring) | join(" ")' "$IN")
prop=$(j '[.proposed_hmat[].entry] | map(tostring) | join(" ")')
expect "entries = the measurement in 10 ps and MB/s units" "$prop" "$want"
expect "base units: 10 ps, 1 MB/s" "$(j '[.proposed_hmat[].base_unit] | unique | map(tostring) | join(" ")')" "1 10"

usage_error "--emit-hmat, --hmat-table missing" slit --input "$IN" --emit-hmat "$TMP/x.asl" --hmat-table "$TMP/none"
printf 'SLIT\x30\x00\x00\x00\x01\x2cBOCHS BXPCSLIT\x01\x00\x00\x00BXPC\x01\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x0a\x15\x15\x0a' >"$TMP/SLIT"
usage_error "--emit-hmat with a SLIT for IDs" slit --input "$IN" --emit-hmat "$TMP/x.asl" \
	--hmat-table "$TMP/SLIT" --oem-id A --oem-table-id B
usage_error "--slit-table without --emit-acpi" slit --input "$IN" --emit-hmat "$TMP/x.asl" \
	--oem-id A --oem-table-id B --slit-table "$TMP/SLIT"
[ ! -e "$TMP/x.asl" ] && pass "nothing written on usage errors" || fail "$TMP/x.asl written"

# ---- what 16-bit entries cannot hold: refused, nothing written ----
# CSV latency matrices of nodes 0 and 1 (ns): local, remote, remote, local.
lat() {
	printf '# pagehop matrix\n# metric: latency_ns\n# rows: cpu node, columns: memory node\nnode,0,1\n0,%s,%s\n1,%s,%s\n' \
		"$1" "$2" "$3" "$4" >"$TMP/$5.csv"
}
IDS=(--oem-id A --oem-table-id B)
lat 1 100000 100000 1 wide
usage_error "1 ns beside 100000 ns: no base unit holds both within 1%" slit --input "$TMP/wide.csv" --emit-hmat "$TMP/wide.asl" "${IDS[@]}"
grep -q "from node 0 to node 0, 1 ns, would be written as 10 ns (entry 1 x base unit 10000 ps)" "$TMP/err" &&
	pass "the refusal names the cell and what it would read" || fail "refusal: $(cat "$TMP/err")"
"$PAGEHOP" slit --input "$TMP/wide.csv" --verbose >"$TMP/wide.out" 2>&1
grep -q "the proposed HMAT (memory_tiers, interleave_weights) has 2 entries beyond 1% of the measurement" "$TMP/wide.out" &&
	pass "without --emit-hmat, the views of the clamped proposal say so" || fail "no note: $(grep -i hmat "$TMP/wide.out" | head -3)"
lat 1e300 1e301 1e301 1e300 huge
usage_error "1e300 ns: beyond 2^32 - 1 ps" slit --input "$TMP/huge.csv" --emit-hmat "$TMP/huge.asl" "${IDS[@]}"
grep -q "beyond what an HMAT entry x base unit can be (at most 2^32 - 1 = 4294967295 ps" "$TMP/err" &&
	pass "the refusal says the limit" || fail "refusal: $(cat "$TMP/err")"
lat 80 - 130 80 hole
usage_error "a cell not measured among measured ones" slit --input "$TMP/hole.csv" --emit-hmat "$TMP/hole.asl" "${IDS[@]}"
grep -q "access_latency from node 0 to node 1 was not measured" "$TMP/err" &&
	pass "the refusal names the cell not measured" || fail "refusal: $(cat "$TMP/err")"
[ ! -e "$TMP/wide.asl" ] && [ ! -e "$TMP/huge.asl" ] && [ ! -e "$TMP/hole.asl" ] &&
	pass "nothing written for what cannot be represented" || fail "an .asl written: $(ls "$TMP")"
# Node 1's row and column measured nowhere: left out, and said so.
printf '# pagehop matrix\n# metric: latency_ns\n# rows: cpu node, columns: memory node\nnode,0,1\n0,80,-\n1,-,-\n' >"$TMP/out1.csv"
"$PAGEHOP" slit --input "$TMP/out1.csv" --emit-hmat "$TMP/out1.asl" "${IDS[@]}" --format json >"$TMP/o1.json" 2>"$TMP/o1.err"
expect "node 1 measured nowhere: one entry, node 0 to node 0" \
	"$(jq -r '[.proposed_hmat[] | "\(.initiator)>\(.target)=\(.entry)x\(.base_unit)"] | join(" ")' "$TMP/o1.json")" "0>0=8000x10"
grep -q "left out, nothing measured: initiator node(s) 1 target node(s) 1" "$TMP/out1.asl" &&
	pass "the source's comment names what is left out" || fail "comment: $(head -n 12 "$TMP/out1.asl")"
grep -q "access_latency left out, nothing measured: initiator node(s) 1 target node(s) 1" "$TMP/o1.json" &&
	pass "the report notes what is left out" || fail "no note in $(head -c 300 "$TMP/o1.json")"
# 1.234 ns beside 1000 ns: base 100 would write 1.2 ns (2.8% off); base 16 (the
# smallest that holds 1e6 ps: 1e6 / 65534.5 = 15.26) gives 77 x 16 = 1232 ps
# (0.16% off) and 62500 x 16 = 1e6 ps.
lat 1.234 1000 1000 1.234 base16
"$PAGEHOP" slit --input "$TMP/base16.csv" --emit-hmat "$TMP/b16.asl" "${IDS[@]}" --format json >"$TMP/b16.json" 2>"$TMP/b16.err"
expect "1.234 and 1000 ns: written" "$?" 0
expect "1.234 and 1000 ns: base unit 16 ps, entries 77 and 62500" \
	"$(jq -r '[.proposed_hmat[] | "\(.entry)x\(.base_unit)"] | join(" ")' "$TMP/b16.json")" "77x16 62500x16 62500x16 77x16"
grep -q "access_latency = the measured load latency, ps, entry base unit 16" "$TMP/b16.asl" &&
	grep -q "Memory-side caches: none" "$TMP/b16.asl" &&
	pass "the comment gives the base unit and says no cache is emitted" || fail "comment: $(head -n 12 "$TMP/b16.asl")"
grep -q "Structure Type : 0002" "$TMP/b16.asl" && fail "a memory-side cache emitted" || pass "no memory-side cache structure"

if ! command -v iasl >/dev/null; then
	[ $_failed -eq 0 ] || finish
	skip_test "iasl missing (acpica-tools, installed by scripts/install-deps.sh check): the --emit-hmat source was not compiled"
fi
(cd "$TMP" && iasl h.asl) >"$TMP/iasl.log" 2>&1 && [ -s "$TMP/h.aml" ] &&
	pass "iasl compiles the proposed HMAT" || fail "iasl: $(tail -n 5 "$TMP/iasl.log")"
[ -s "$TMP/h.aml" ] || finish

# Path 1: pagehop's HMAT parser on the compiled bytes.
"$PAGEHOP" slit --input "$IN" --hmat-table "$TMP/h.aml" --format json >"$TMP/b.json" 2>"$TMP/b.err"
row='[.data_type, .initiator, .target, .entry, .base_unit, .value] | map(tostring) | join(",")'
expect "parsed back: every entry, base unit and kernel value equal the proposal" \
	"$(jq -r "[.hmat_table_entries[] | $row] | join(\" \")" "$TMP/b.json")" \
	"$(j "[.proposed_hmat[] | $row] | join(\" \")")"
expect "parsed back: the firmware's 5 domains (4 with CPU, 4 without its initiator given)" \
	"$(jq -r '[.hmat_table_domains[] | "\(.memory_domain):\(.initiator_domain)"] | join(" ")' "$TMP/b.json")" \
	"0:0 1:1 2:2 3:3 4:not given"
expect "parsed back: the firmware's memory-side cache kept" \
	"$(jq -r '[.hmat_table_caches[] | "\(.memory_domain) \(.size_bytes) \(.associativity) \(.write_policy) \(.line_bytes)"] | join(";")' "$TMP/b.json")" \
	"0 67108864 direct write-back 64"
expect "parsed back: OEM fields in the header" "$(dd if="$TMP/h.aml" bs=1 skip=10 count=14 2>/dev/null)" "BOCHS BXPCHMAT"

# Path 2: iasl's own disassembly of the same bytes.
(cd "$TMP" && iasl -d h.aml) >"$TMP/d.log" 2>&1
dis=$(sed -n 's/.*Entry : \([0-9A-F]*\)$/\1/p' "$TMP/h.dsl" | while read -r x; do echo $((16#$x)); done | tr '\n' ' ' | sed 's/ $//')
expect "iasl -d: the 40 entries equal the measurement" "$dis" "$want"
expect "iasl -d: base units" "$(sed -n 's/.*Entry Base Unit : \([0-9A-F]*\)$/\1/p' "$TMP/h.dsl" | tr '\n' ' ')" \
	"000000000000000A 0000000000000001 "
expect "iasl -d: data types access latency, access bandwidth" \
	"$(sed -n 's/.*Data Type : \([0-9A-F]*\)$/\1/p' "$TMP/h.dsl" | tr '\n' ' ')" "00 03 "

# The base unit of 16 through iasl and back: compiled, disassembled, entries by hand.
(cd "$TMP" && iasl b16.asl && iasl -d b16.aml) >"$TMP/b16.log" 2>&1
expect "iasl: base unit 16 ps" "$(sed -n 's/.*Entry Base Unit : \([0-9A-F]*\)$/\1/p' "$TMP/b16.dsl")" "0000000000000010"
expect "iasl: entries 77, 62500, 62500, 77 (0x4D, 0xF424)" \
	"$(sed -n 's/.*Entry : \([0-9A-F]*\)$/\1/p' "$TMP/b16.dsl" | tr '\n' ' ')" "004D F424 F424 004D "
finish
