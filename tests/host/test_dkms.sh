#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# test_dkms.sh PAGEHOP - "dkms build" of pagehop.ko succeeds for every
# installed kernel that has headers (6.1 and 6.12 on the CI machine), from a
# copy of the tree, in a private dkms tree under a temporary directory: the
# system's /var/lib/dkms and /usr/src are not touched.  The host only
# builds; the QEMU guests load.  Exit 0 pass, 77 skip (with the reason).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

command -v dkms >/dev/null || { echo "skip: dkms not installed (scripts/install-deps.sh check)"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: dkms build needs root"; exit 77; }

api=$(sed -n 's/^#define PAGEHOP_API_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$root/include/uapi/pagehop.h")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
if [ -z "$api" ] || [ "$ver" != "$api" ]; then
	echo "FAIL: dkms.conf PACKAGE_VERSION '$ver' is not the ABI version '$api'"
	exit 1
fi

kernels=()
for d in /lib/modules/*/build; do
	[ -d "$d" ] && kernels+=("$(basename "$(dirname "$d")")")
done
[ ${#kernels[@]} -gt 0 ] || { echo "skip: no kernel headers installed"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src/pagehop-$api
mkdir -p "$src" "$tmp/dkms"
# What dkms would find in /usr/src after "make install": the whole tree.
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
opts=(--sourcetree "$tmp/src" --dkmstree "$tmp/dkms")
# dkms signs what it builds, creating a key in /var/lib/dkms if there is
# none; keep that key in the temporary directory too.
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub

if ! dkms add -m pagehop -v "$api" "${opts[@]}" >"$tmp/add.log" 2>&1; then
	echo "FAIL: dkms add"; cat "$tmp/add.log"; exit 1
fi
fail=0
for k in "${kernels[@]}"; do
	if ! dkms build -m pagehop -v "$api" -k "$k" "${opts[@]}" >"$tmp/build.log" 2>&1; then
		echo "FAIL: dkms build for $k"
		tail -n 30 "$tmp/build.log"
		find "$tmp/dkms" -name make.log -exec tail -n 30 {} \;
		fail=1
		continue
	fi
	ko=$(find "$tmp/dkms/pagehop/$api/$k" -name 'pagehop.ko*' | head -n1)
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	if [ -z "$ko" ] || [ "$vm" != "$k" ]; then
		echo "FAIL: dkms build for $k left '${ko:-no module}' with vermagic '$vm'"
		fail=1
		continue
	fi
	echo "ok: dkms build for $k: $(basename "$ko"), vermagic $vm"
done
exit $fail
