# SPDX-License-Identifier: GPL-2.0-only
# acpi_check.sh - after booting with pagehop's proposed SLIT in front of the
# initrd (the kernel's ACPI table upgrade), the kernel's node distances are
# the proposed ones, not the ones QEMU's firmware published.
. /tests/tap.sh
plan 3
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
