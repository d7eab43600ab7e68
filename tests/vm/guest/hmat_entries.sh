# SPDX-License-Identifier: GPL-2.0-only
# hmat_entries.sh - QEMU's HMAT entry by entry (tests/vm/lib.sh gives every
# initiator x target latency and bandwidth with -numa hmat-lb, 0 -> 2 out
# of order): "pagehop slit --hmat-table" reads back every entry of the
# machine's raw table, equal to what QEMU was told (VM_HMAT_LAT,
# VM_HMAT_BW), and flags exactly the out-of-order one against the SLIT
# the kernel uses.
. /tests/tap.sh
plan 9

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
