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
finish
