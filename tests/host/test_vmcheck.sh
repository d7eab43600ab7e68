# SPDX-License-Identifier: GPL-2.0-only
# test_vmcheck.sh - the guests' kernel log check (tests/vm/lib.sh vm_check)
# fails on each sign of trouble a guest kernel prints, whether or not the
# kernel went on: a page-table entry found corrupt and cleared, a WARN or
# BUG, a reference count gone wrong, a stuck CPU; and passes a clean boot.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/vm/lib.sh
. "$PAGEHOP_ROOT/tests/vm/lib.sh"

out=$TMP/guest
mkdir -p "$out"
printf '### begin t\n1..1\nok 1 - fine\n### end t rc=0\n### all done\n' >"$out/tap.log"
clean='[    0.000000] Linux version 6.12.117+deb12-amd64
[    0.120000] rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.
[    0.130000] rcu: 	RCU restricting CPUs from NR_CPUS=8192 to nr_cpu_ids=4.
[    1.500000] x86/mm: Checked W+X mappings: passed, no W+X pages found.
[    3.100000] pagehop: /dev/pagehop ready: API 1, pin cap 6000 MiB, features 0x1f
[    9.000000] pagehop: kmodtest[211]: ALLOC: node 3 has no 4 MiB of 4 KiB pages now'

check_log() {
	printf '%s\n%s\n' "$clean" "$2" >"$out/console.log"
	if vm_check "$out" t >"$TMP/check" 2>&1; then
		fail "$1 passed the check: $2"
	elif grep -qF "$2" "$TMP/check"; then
		pass "$1 fails the check"
	else
		fail "$1 failed the check without naming the line: $(cat "$TMP/check")"
	fi
}

printf '%s\n' "$clean" >"$out/console.log"
vm_check "$out" t >"$TMP/check" 2>&1 && pass "a clean log passes" || fail "a clean log fails: $(cat "$TMP/check")"

check_log "bad pud" '[  812.345678] mm/pgtable-generic.c:41: bad pud 00000000a1b2c3d4(80000001400000e7)'
check_log "bad pmd" '[  812.345678] mm/pgtable-generic.c:53: bad pmd 00000000a1b2c3d4(8000000140000ee7)'
check_log "bad page" '[  812.345678] mm/pgtable-generic.c:29: bad pgd ...; bad page 0000000012345678'
check_log "BUG" '[  812.345678] BUG: Bad page state in process kmodtest  pfn:140000'
check_log "WARNING" '[  812.345678] WARNING: CPU: 2 PID: 311 at lib/refcount.c:28 refcount_warn_saturate+0x97/0x110'
check_log "refcount_t" '[  812.345678] refcount_t: underflow; use-after-free.'
check_log "soft lockup" '[  812.345678] watchdog: soft lockup - CPU#1 stuck for 23s! [kmodtest:240]'
check_log "RCU stall" '[  812.345678] rcu: INFO: rcu_preempt self-detected stall on CPU'
check_log "Oops" '[  812.345678] Oops: general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI'
check_log "general protection" '[  812.345678] traps: kmodtest[240] general protection ip:401234 sp:7ffd0000 error:0 in kmodtest'
finish
