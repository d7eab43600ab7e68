# SPDX-License-Identifier: GPL-2.0-only
# acpi_check.sh - after booting with pagehop's proposed SLIT in front of the
# initrd (the kernel's ACPI table upgrade), the kernel's node distances are
# the proposed ones, not the ones QEMU's firmware published; and with the
# proposed HMAT (VM_EXPECT_HMAT_LAT, its local latency), each node's best
# initiator latency in sysfs (access0) is the proposed one, not QEMU's 80 ns.
. /tests/tap.sh
plan 5
dmesg >/tmp/dmesg
grep -q 'ACPI: Table Upgrade: override \[SLIT-' /tmp/dmesg &&
	ok "the kernel took the SLIT from the initrd: $(grep -m1 'Table Upgrade: override \[SLIT' /tmp/dmesg | sed 's/^\[[ 0-9.]*\] //')" ||
	not_ok "table upgrade of the SLIT" "$(grep -i 'table upgrade\|SLIT' /tmp/dmesg | head -5)"
got=$(for i in 0 1 2 3; do cat /sys/devices/system/node/node$i/distance; done | tr '\n' ' ' | sed 's/ *$//')
[ "$got" = "$VM_EXPECT_SLIT" ] && ok "node distances are the proposed SLIT: $got" ||
	not_ok "node distances" "want $VM_EXPECT_SLIT got $got"
pagehop info --format json >/tmp/i.json
got=$(jq -r '[.distances.values[][]] | map(tostring) | join(" ")' /tmp/i.json)
[ "$got" = "$VM_EXPECT_SLIT" ] && ok "pagehop info shows it too" || not_ok "pagehop info" "got $got"
if [ -n "${VM_EXPECT_HMAT_LAT:-}" ]; then
	grep -q 'ACPI: Table Upgrade: override \[HMAT-' /tmp/dmesg &&
		ok "the kernel took the HMAT from the initrd: $(grep -m1 'Table Upgrade: override \[HMAT' /tmp/dmesg | sed 's/^\[[ 0-9.]*\] //')" ||
		not_ok "table upgrade of the HMAT" "$(grep -i 'table upgrade\|HMAT' /tmp/dmesg | head -5)"
	got=$(for i in 0 1 2 3; do cat /sys/devices/system/node/node$i/access0/initiators/read_latency 2>/dev/null || echo -; done | tr '\n' ' ' | sed 's/ $//')
	want="$VM_EXPECT_HMAT_LAT $VM_EXPECT_HMAT_LAT $VM_EXPECT_HMAT_LAT $VM_EXPECT_HMAT_LAT"
	[ "$got" = "$want" ] && ok "access0 read_latency is the proposed HMAT's: $got" ||
		not_ok "access0 read_latency" "want $want got $got"
else
	skip "table upgrade of the HMAT" "no proposed HMAT from the slit4 guest"
	skip "access0 read_latency" "no proposed HMAT"
fi
