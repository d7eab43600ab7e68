# SPDX-License-Identifier: GPL-2.0-only
# kmod_chase.sh - CHASE walks a whole cycle on every CPU with interrupts off
# and ends where userspace says; PREFETCH fails cleanly without the MSRs.
# (1 GiB pages: in kmod_place.sh, while a free GiB is there.)
. /tests/tap.sh
plan 5

check_v "CHASE over 4 KiB pages (vmap)" kmodtest chase 4k 0
case "$VM_KVER" in
6.1.*) skip "CHASE over 2 MiB pages" "no 2 MiB buffers on $VM_KVER" ;;
*) check_v "CHASE over 2 MiB pages (direct map)" kmodtest chase 2m 1 ;;
esac
check "PREFETCH: EOPNOTSUPP where there is no prefetcher MSR" kmodtest prefetch
check_v "CHASE windows end at about 1 ms of TSC and say how many hops they took" kwalk chase-window
check "PREFETCH SET without CAP_SYS_RAWIO: EPERM" kwalk prefetch-perm
