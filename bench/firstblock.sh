#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/firstblock.sh [SECONDS] - whether the first block after pagehop's
# thread team slept in its barrier runs slower than the next, for the
# loops of c2c, locks (with and without the lock, one thread), the chaser
# of loaded and a two-thread read (the bandwidth engines' blocks): bench/firstblock.c, built in a temporary directory
# against build/libpagehop.a, then run for SECONDS (default 5) per loop,
# and once more for c2c and the loop without the lock with an untimed
# block first (what locks does since it saw the effect).  Prints one line
# per run; see the comment in firstblock.c for how to read it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-5}
case $secs in '' | *[!0-9.]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac
[ "$(nproc)" -ge 2 ] || { echo "needs two CPUs" >&2; exit 4; }
[ -f "$root/build/libpagehop.a" ] || { echo "build/libpagehop.a missing: make" >&2; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The include path and libraries of the unit tests (Makefile).
inc=() libs=(-lnuma -lhwloc -lcpuid -ljson-c -lpfm -lpthread -lm)
for d in include user/cli user/study user/service user/analysis user/io user/machine user/base kernels; do inc+=(-I"$root/$d"); done
# libgomp where the build linked it (locks' omp kind), else without.
build() { gcc -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror "${inc[@]}" -I/usr/include/json-c \
	-o "$tmp/firstblock" "$root/bench/firstblock.c" "$root/build/libpagehop.a" "${libs[@]}" "$@"; }
build -lgomp 2>/dev/null || build
for m in c2c without tas chase read; do "$tmp/firstblock" "$m" "$secs"; done
for m in c2c without; do "$tmp/firstblock" "$m" "$secs" 1; done
