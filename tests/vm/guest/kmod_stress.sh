# SPDX-License-Identifier: GPL-2.0-only
# kmod_stress.sh - 100,000 random ioctls and mmaps, then 4 threads
# allocating, mapping, touching, querying, unmapping and freeing at random
# for 30 s, then ALLOCs whose copy-out faults racing FREEs for 20 s.
# Nothing may stay pinned; the kernel log must stay clean (run.sh).
. /tests/tap.sh
plan 3

seed=$(date +%s)
diag "fuzz seed $seed"
check_v "fuzz: 100000 ioctls, only ABI errnos, nothing left pinned" kmodtest fuzz 100000 $seed
check_v "stress: 4 threads for 30 s" kmodtest stress 4 30
check_v "ALLOC with a read-only struct racing FREE: no id seen before its copy-out" kmodtest alloc-race 20
