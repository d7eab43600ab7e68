#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/rebase.sh [PAIRS] [SIZE_MIB] - a chain written and checked from its
# order against the same chain rebased into another mapping of its frames
# (bench/rebase.c, built in a temporary directory against
# build/libpagehop.a), PAIRS pairs (default 10) over SIZE_MIB (default 256):
# the pairs on stderr, then their summary (lib.sh pair_summary: the median
# per-pair ratio link/rebase with its CI).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PH_BENCH_NO_LIKWID=1
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_pairs_open "${1:-10}" "${2:-256}"
case $size in *[!0-9]*) echo "usage: $0 [PAIRS] [SIZE_MIB]" >&2; exit 2 ;; esac
[ -f "$root/build/libpagehop.a" ] || { echo "build/libpagehop.a missing: make" >&2; exit 4; }
gcc -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$root/kernels" \
	-o "$tmp/rebase" "$root/bench/rebase.c" "$root/build/libpagehop.a"
"$tmp/rebase" "$size" "$pairs" | tee "$tmp/pair" | sed 's/^/  link_s rebase_s: /' >&2
pair_summary "$tmp/pair" "${size}M" link_s rebase_s
