#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/run.sh [-k SERIES]... [-p PLAN] [NAME...] - boot pagehop's QEMU
# test guests and check their TAP results and kernel logs.
#
#   -k SERIES   kernel series to boot, 6.1 or 6.12 (default: both)
#   -p PLAN     plan file (default tests/vm/plan)
#   NAME        boots from the plan to run (default: all)
#
# Fails on any failed or missing test result, a timeout, or a sign of trouble
# in a guest's kernel log (lib.sh VM_KERNEL_PROBLEMS: bad pud/pmd/page, BUG,
# WARNING, refcount_t, soft lockup, RCU stall, Oops, general protection...).  Results are kept under
# build/vm-results/<kernel>/<name>/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

series=() plan=$here/plan
while getopts "k:p:" o; do
	case $o in
	k) series+=("$OPTARG") ;;
	p) plan=$OPTARG ;;
	*) echo "usage: $0 [-k 6.1|6.12]... [-p PLAN] [NAME...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ ${#series[@]} -gt 0 ] || series=(6.1 6.12)
only=("$@")

command -v qemu-system-x86_64 >/dev/null || vm_die "qemu-system-x86_64 missing: run scripts/install-deps.sh check"
[ -x /bin/busybox ] || vm_die "/bin/busybox missing: run scripts/install-deps.sh check"
[ -x "$VM_BUILD/pagehop" ] || vm_die "$VM_BUILD/pagehop not built: run make"
[ -x "$VM_BUILD/test/pagehop" ] || vm_die "$VM_BUILD/test/pagehop (the test build) not built: run make"

fail=0
for s in "${series[@]}"; do
	if ! vm_find_kernel "$s"; then
		echo "not ok - kernel $s: no /boot/vmlinuz-$s.* with headers; run scripts/install-deps.sh check"
		fail=1
		continue
	fi
	VM_MODULE=
	if [ -f "$VM_ROOT/kmod/Kbuild" ]; then
		if ! make -s -C "$VM_ROOT" kmod KVER="$VM_KVER" >"$VM_BUILD/kmod-$VM_KVER.log" 2>&1; then
			echo "not ok - pagehop.ko does not build for $VM_KVER:"
			tail -n 20 "$VM_BUILD/kmod-$VM_KVER.log" | sed 's/^/    /'
			fail=1
			continue
		fi
		VM_MODULE=$VM_BUILD/kmod/$VM_KVER/kmod/pagehop.ko
	fi
	export VM_MODULE
	while read -r name config timeout tests; do
		case "$name" in ''|'#'*) continue ;; esac
		# CONFIG@SERIES: this boot only on that kernel series.
		case "$config" in
		*@*) [ "${config#*@}" = "$s" ] || continue; config=${config%@*} ;;
		esac
		if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
			continue
		fi
		out=$VM_BUILD/vm-results/$VM_KVER/$name
		# shellcheck disable=SC2086 # tests is a word list
		echo "# guest $name ($config) on $VM_KVER: $tests"
		start=$(date +%s)
		# shellcheck disable=SC2086
		vm_boot "$config" "$timeout" "$out" $tests
		rc=$?
		[ $rc -eq 124 ] && echo "# guest $name timed out after ${timeout}s"
		# shellcheck disable=SC2086
		if ! vm_check "$out" $tests; then
			fail=1
			echo "# logs: $out/console.log $out/tap.log"
		elif [ "$name" = slit4 ]; then
			# The SLIT that guest proposed, through the kernel's table upgrade.
			bash "$here/acpi_roundtrip.sh" "$s" || fail=1
		elif [ "$name" = cxl ]; then
			# The CDAT that guest emitted, through QEMU's cdat= and the kernel.
			bash "$here/cxl_roundtrip.sh" "$s" || fail=1
		fi
		echo "# guest $name on $VM_KVER took $(($(date +%s) - start))s"
	done <"$plan"
done
exit $fail
