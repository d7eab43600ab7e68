# SPDX-License-Identifier: GPL-2.0-only
# kmod_chase.sh - CHASE walks a whole cycle on every CPU with interrupts off
# and ends where userspace says; PREFETCH fails cleanly without the MSRs.
. /tests/tap.sh
plan 3

check "CHASE over 4 KiB pages (vmap)" kmodtest chase 4k 0
case "$VM_KVER" in
6.1.*) skip "CHASE over 2 MiB pages" "no 2 MiB buffers on $VM_KVER" ;;
*) check "CHASE over 2 MiB pages (direct map)" kmodtest chase 2m 1 ;;
esac
check "PREFETCH: EOPNOTSUPP where there is no prefetcher MSR" kmodtest prefetch
