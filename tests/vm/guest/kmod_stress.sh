# SPDX-License-Identifier: GPL-2.0-only
# kmod_stress.sh - 100,000 random ioctls and mmaps, then 4 threads
# allocating, mapping, touching, querying, unmapping and freeing at random
# for 30 s.  Nothing may stay pinned; the kernel log must stay clean (run.sh).
. /tests/tap.sh
plan 2

seed=$(date +%s)
diag "fuzz seed $seed"
check "fuzz: 100000 ioctls, only ABI errnos, nothing left pinned" kmodtest fuzz 100000 $seed
check "stress: 4 threads for 30 s" kmodtest stress 4 30
