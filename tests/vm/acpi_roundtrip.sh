#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/acpi_roundtrip.sh KVER - the proposed SLIT through the kernel: take
# the ACPI source "pagehop slit --emit-acpi" wrote in the slit4 guest (kept
# in its TAP log), compile it with iasl, put it as kernel/firmware/acpi/
# slit.aml in an uncompressed cpio in front of the initrd, boot the same
# machine again and check that the kernel uses the proposed distances.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

vm_roundtrip_open "$1" slit4 acpi
mkdir -p "$out/cpio/kernel/firmware/acpi"
if ! grep -q '^### file slit.asl' "$src" 2>/dev/null; then
	echo "not ok - acpi round trip: no slit.asl from the slit4 guest in $src"
	exit 1
fi
vm_tap_file slit.asl >"$out/slit.asl"
command -v iasl >/dev/null || vm_die "iasl missing: scripts/install-deps.sh check installs acpica-tools"
if ! (cd "$out" && iasl slit.asl >iasl.log 2>&1) || [ ! -s "$out/slit.aml" ]; then
	echo "not ok - acpi round trip: iasl did not compile the proposed SLIT:"
	sed 's/^/    /' "$out/iasl.log" | tail -n 20
	exit 1
fi
echo "ok - iasl compiled the proposed SLIT ($(stat -c %s "$out/slit.aml") bytes)"
cp "$out/slit.aml" "$out/cpio/kernel/firmware/acpi/slit.aml"
# Uncompressed (below): the kernel looks for tables only in an uncompressed cpio.
expect=$(sed -n 's/^ \*  *[0-9][0-9]*: *//p' "$out/slit.asl" | tr -s ' \n' ' ' | sed 's/ *$//')
# The proposed HMAT too, when the guest printed one (hmat_entries.sh: 90 ns local).
hmat_lat=
if grep -q '^### file hmat.asl' "$src"; then
	vm_tap_file hmat.asl >"$out/hmat.asl"
	if (cd "$out" && iasl hmat.asl >iasl-hmat.log 2>&1) && [ -s "$out/hmat.aml" ]; then
		echo "ok - iasl compiled the proposed HMAT ($(stat -c %s "$out/hmat.aml") bytes)"
		cp "$out/hmat.aml" "$out/cpio/kernel/firmware/acpi/hmat.aml"
		hmat_lat=90
	else
		echo "not ok - acpi round trip: iasl did not compile the proposed HMAT:"
		sed 's/^/    /' "$out/iasl-hmat.log" | tail -n 20
		exit 1
	fi
fi
(cd "$out/cpio" && find kernel | cpio -o -H newc --quiet) >"$out/acpi.cpio"
export VM_MODULE=${VM_MODULE:-}
VM_EXTRA_INITRD=$out/acpi.cpio VM_ENV_EXTRA="VM_EXPECT_SLIT='$expect' VM_EXPECT_HMAT_LAT='$hmat_lat'" \
	vm_boot numa4 180 "$out/boot" acpi_check
vm_check "$out/boot" acpi_check
