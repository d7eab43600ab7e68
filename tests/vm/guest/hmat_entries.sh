# SPDX-License-Identifier: GPL-2.0-only
# hmat_entries.sh - QEMU's HMAT entry by entry (tests/vm/lib.sh gives every
# initiator x target latency and bandwidth with -numa hmat-lb, 0 -> 2 out
# of order): "pagehop slit --hmat-table" reads back every entry of the
# machine's raw table, equal to what QEMU was told (VM_HMAT_LAT,
# VM_HMAT_BW), and flags exactly the out-of-order one against the SLIT
# the kernel uses.  --emit-hmat writes the HMAT proposed from the same
# matrix with the machine's HMAT IDs: iasl (copied into the guest by
# tests/vm/lib.sh) compiles it and pagehop's parser reads back the entries.
# A second proposal, from a matrix of 90 ns local and 150 ns remote, is
# printed for the host's ACPI round trip (tests/vm/acpi_roundtrip.sh),
# which boots the guest again with it and checks access0 in sysfs.
. /tests/tap.sh
plan 13

t=/sys/firmware/acpi/tables/HMAT
[ -r $t ] && ok "the raw HMAT is readable ($(wc -c <$t) bytes)" || not_ok "raw HMAT" "$(ls -l /sys/firmware/acpi/tables/)"
# A flat latency matrix (the analysis of the table does not depend on it)
# and the SLIT the kernel uses.
flat_csv >/tmp/flat.csv
sys_slit >/tmp/slit.txt
pagehop slit --input /tmp/flat.csv --slit /tmp/slit.txt --hmat-table $t --format json >/tmp/h.json 2>/tmp/err
rc=$?
[ $rc = 1 ] && ok "slit --hmat-table runs to the SLIT's verdict (exit $rc)" || not_ok "slit --hmat-table" "rc $rc: $(cat /tmp/err)"
[ "$(jq -r .hmat_table.status /tmp/h.json)" = read ] && ok "hmat_table read" || not_ok "hmat_table" "$(jq -c .hmat_table /tmp/h.json)"

# Every entry, row-major by initiator then target, against what QEMU was given.
entries() { jq -r "[.hmat_table_entries[] | select(.hierarchy == \"memory\" and .data_type == \"$1\")] | sort_by(.initiator, .target) | map(.value | tostring) | join(\" \")" /tmp/h.json; }
lat=$(entries access_latency)
bw=$(entries access_bandwidth)
[ "$lat" = "$VM_HMAT_LAT" ] && ok "16 latency entries as given: $lat" || not_ok "latency entries" "want $VM_HMAT_LAT got $lat"
[ "$bw" = "$VM_HMAT_BW" ] && ok "16 bandwidth entries as given: $bw" || not_ok "bandwidth entries" "want $VM_HMAT_BW got $bw"
n=$(jq '[.hmat_table_entries[]] | length' /tmp/h.json)
[ "$n" = 32 ] && ok "32 entries in all" || not_ok "entry count" "$n"

# The out-of-order entry, and only it: initiator 0 ranks 2 (110 ns) before 1 (130 ns).
o=$(jq -r '[.hmat_table_order[]? | "\(.data_type) \(.initiator): \(.hmat_near) (\(.hmat_near_value)) before \(.hmat_far) (\(.hmat_far_value)), SLIT \(.slit_near) > \(.slit_far), \(.disagrees)"] | join("; ")' /tmp/h.json)
[ "$o" = "access_latency 0: 2 (110) before 1 (130), SLIT 22 > 16, slit" ] &&
	ok "the out-of-order entry flagged: $o" || not_ok "order" "$o"
[ "$(jq -r .hmat_table.order_against_slit /tmp/h.json)" = 1 ] && ok "order_against_slit 1" || not_ok "order count" "$(jq -c .hmat_table /tmp/h.json)"
# Every node's best initiator is itself at 80 ns and 20480 MB/s: the 10% rule holds.
tr=$(jq -r '[.hmat_table_tiering[] | "\(.node):\(.read_lat_ns)/\(.read_bw_MBps)/\(.over_10pct)"] | join(" ")' /tmp/h.json)
[ "$tr" = "0:80/20480/reference 1:80/20480/no 2:80/20480/no 3:80/20480/no" ] &&
	ok "tiering figures per node: $tr" || not_ok "tiering" "$tr"

# The proposed HMAT: compiled by iasl, read back by the parser, equal to the proposal.
pagehop slit --input /tmp/flat.csv --slit /tmp/slit.txt --hmat-table $t --emit-hmat /tmp/hmat.asl \
	--format json >/tmp/p.json 2>/tmp/err
rc=$?
[ $rc = 1 ] && [ "$(jq -r .acpi_hmat.oem_table_id /tmp/p.json)" = "$(dd if=$t bs=1 skip=16 count=8 2>/dev/null)" ] &&
	[ "$(jq -r .acpi_hmat.oem_revision /tmp/p.json)" = $(($(od -An -tu4 -j24 -N4 $t) + 1)) ] &&
	ok "--emit-hmat with the machine's IDs: $(jq -c .acpi_hmat /tmp/p.json)" || not_ok "--emit-hmat" "rc $rc: $(cat /tmp/err) $(jq -c .acpi_hmat /tmp/p.json)"
if ! command -v iasl >/dev/null; then
	skip "iasl compiles the proposed HMAT" "iasl not in the guest image (acpica-tools missing on the host)"
	skip "the compiled HMAT reads back" "no iasl"
else
	(cd /tmp && iasl hmat.asl >/tmp/iasl.log 2>&1) && [ -s /tmp/hmat.aml ] &&
		ok "iasl compiles the proposed HMAT ($(wc -c </tmp/hmat.aml) bytes)" || not_ok "iasl" "$(tail -n 5 /tmp/iasl.log)"
	row='[.data_type, .initiator, .target, .entry, .base_unit, .value] | map(tostring) | join(",")'
	pagehop slit --input /tmp/flat.csv --slit /tmp/slit.txt --hmat-table /tmp/hmat.aml --format json >/tmp/b.json 2>/tmp/err
	back=$(jq -r "[.hmat_table_entries[] | $row] | join(\" \")" /tmp/b.json)
	prop=$(jq -r "[.proposed_hmat[] | $row] | join(\" \")" /tmp/p.json)
	[ -n "$prop" ] && [ "$back" = "$prop" ] && ok "the compiled HMAT reads back as proposed: $back" ||
		not_ok "read back" "want $prop got $back"
fi

# For the round trip: local 90 ns, remote 150 ns (QEMU's firmware says 80 local).
{ printf '# pagehop matrix\n# metric: latency_ns\nnode,0,1,2,3\n'
  for i in 0 1 2 3; do printf '%s' $i; for j in 0 1 2 3; do [ $i = $j ] && printf ',90' || printf ',150'; done; echo; done
} >/tmp/rt.csv
pagehop slit --input /tmp/rt.csv --slit /tmp/slit.txt --hmat-table $t --emit-hmat /tmp/hmat.asl >/dev/null 2>/tmp/err
grep -q 'Signature *: "HMAT"' /tmp/hmat.asl && ok "--emit-hmat wrote the round trip's HMAT (90 ns local)" || not_ok "--emit-hmat round trip" "$(cat /tmp/err)"
echo "### file hmat.asl"
cat /tmp/hmat.asl
echo "### end file"
