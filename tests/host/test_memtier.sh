# SPDX-License-Identifier: GPL-2.0-only
# test_memtier.sh - section memory_tiers of "pagehop slit": the memory
# tiers and demotion targets Linux derives from the firmware's HMAT
# (tests/data/hmat/qemu-4node-odd.hmat: every node 80 ns, 20480 MB/s
# local; nothing for node 4) and from the HMAT proposed from
# tests/data/slit/matrix-4node-cxl.json, by the rule of the kernel named in
# PAGEHOP_KERNEL or --kernel-version; none for another host's table unless
# a kernel is named.  Values worked out by hand (docs/slit.md section 13):
#   proposed, node 0 is the reference: 91 ns, 20100 MB/s (read = write);
#   node 4: best initiator 251 ns, 6100 MB/s:
#     576 * 502 / 182 = 1588, * 40200 / 12200 = 5232, memory_tier40;
#   node 1: 90 ns, 19900 MB/s: 576 * 180 / 182 = 569, * 40200 / 39800 = 574.
. "$(dirname "$0")/lib.sh"

ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
IN=(--input "$ROOT/tests/data/slit/matrix-4node-cxl.json" --hmat-table "$ROOT/tests/data/hmat/qemu-4node-odd.hmat")

PAGEHOP_KERNEL=6.12.117+deb12-amd64 "$PAGEHOP" slit "${IN[@]}" --format json >"$TMP/a.json" 2>"$TMP/a.err"
expect "6.12: exit 0" "$?" 0
j() { jq -r "$2" "$TMP/$1.json"; }
expect "6.12: the HMAT rule" "$(j a .memory_tiers.rule | cut -c1-21)" "Linux 6.7 and later: "
expect "6.12: the firmware's HMAT: one tier (node 4 not in it: the default distance)" \
	"$(j a .memory_tiers.tiers_firmware)" "4:0-4"
expect "6.12: proposed: node 4 in a tier of its own" "$(j a .memory_tiers.tiers_proposed)" "4:0-3 40:4"
expect "6.12: proposed abstract distances" "$(j a '[.kernel_tiers[].adist_proposed] | map(tostring) | join(" ")')" \
	"576 574 570 571 5232"
expect "6.12: proposed demotion: every DRAM node to node 4" \
	"$(j a '[.kernel_tiers[].demote_proposed] | join(" ")')" "4 4 4 4 none"
expect "6.12: every node marked as differing" "$(j a .memory_tiers.nodes_differ)" 5
expect "6.12: 10% rule holds on both sides" \
	"$(j a '"\(.memory_tiers.ten_percent_trips_firmware) \(.memory_tiers.ten_percent_trips_proposed)"')" "no no"

PAGEHOP_KERNEL=6.1.0-57-amd64 "$PAGEHOP" slit "${IN[@]}" --format json >"$TMP/b.json" 2>"$TMP/b.err"
expect "6.1: the rule without HMAT" "$(j b .memory_tiers.rule | cut -c1-17)" "Linux 6.1 to 6.6:"
expect "6.1: one tier on both sides" "$(j b '"\(.memory_tiers.tiers_firmware) \(.memory_tiers.tiers_proposed)"')" "4:0-4 4:0-4"
expect "6.1: nothing differs" "$(j b .memory_tiers.nodes_differ)" 0

# The kernel is the measured machine's: --kernel-version names it as PAGEHOP_KERNEL does.
"$PAGEHOP" slit "${IN[@]}" --kernel-version 6.12.117+deb12-amd64 --format json >"$TMP/c.json" 2>"$TMP/c.err"
expect "--kernel-version: the same tiers as PAGEHOP_KERNEL" "$(j c .memory_tiers.tiers_proposed) $(j c .origin.kernel_from)" \
	"4:0-3 40:4 --kernel-version"
# Another host's table, no kernel named: no tiers, and what would give them.
jq '.provenance.host = "not-this-host.example"' "$ROOT/tests/data/slit/matrix-4node-cxl.json" >"$TMP/other.json"
"$PAGEHOP" slit --input "$TMP/other.json" --format json >"$TMP/d.json" 2>"$TMP/d.err"
expect "another host: exit 0" "$?" 0
expect "another host: no rule without its kernel" "$(j d '.memory_tiers.rule | test("give --kernel-version")')" true
expect "another host: kernel unknown, no tiers table" "$(j d '"\(.memory_tiers.kernel) \(has("kernel_tiers"))"')" "unknown false"
"$PAGEHOP" slit --input "$TMP/other.json" --this-kernel --format json >"$TMP/e.json" 2>"$TMP/e.err"
expect "another host, --this-kernel: this kernel's rule" "$(j e .memory_tiers.kernel)" "$(uname -r)"
"$PAGEHOP" slit --input "$TMP/other.json" --kernel-version 6.12 --this-kernel >"$TMP/f.out" 2>"$TMP/f.err"
expect "--kernel-version with --this-kernel: usage" "$? $(wc -c <"$TMP/f.out") $(wc -l <"$TMP/f.err")" "2 0 1"
"$PAGEHOP" slit --input "$TMP/other.json" --kernel-version linux >"$TMP/g.out" 2>"$TMP/g.err"
expect "--kernel-version not a release: usage" "$? $(wc -c <"$TMP/g.out") $(wc -l <"$TMP/g.err")" "2 0 1"
finish
