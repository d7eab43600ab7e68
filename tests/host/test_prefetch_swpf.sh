# SPDX-License-Identifier: GPL-2.0-only
# test_prefetch_swpf.sh - the software-prefetch gain of "pagehop prefetch"
# divides two reads of one ISA: its ratio row names both loops, and they
# are the two rows of the bandwidth table (read by a second path: its kernel
# and isa columns), of the ISA every command's read runs ('pagehop list',
# table stream_auto; test_isa_auto.sh checks that choice).  On an AVX-512
# host read_swpf once ran avx2 beside an avx512 read.
. "$(dirname "$0")/lib.sh"
"$PAGEHOP" prefetch --size 64M --time 0.3 --ci 50 --patterns seq --no-control --format json \
	>"$TMP/p.json" 2>"$TMP/err" || fail "prefetch: $(cat "$TMP/err")"
best=$("$PAGEHOP" list --format json 2>/dev/null |
	jq -r '.stream_auto[]? | select(.kernel == "read" and (.nt | not)) | .isa')
bw=$(jq -r '[.bandwidth[] | "\(.kernel)/\(.isa)"] | join(" ")' "$TMP/p.json")
# The gain is read_swpf / read: a is the prefetching read, b the plain one.
expect "swpf_gain's row names read and read_swpf" \
	"$(jq -r '.ratios[] | select(.ratio == "swpf_gain") | "\(.b) \(.a)"' "$TMP/p.json")" "$bw"
isas=$(jq -r '[.bandwidth[].isa] | unique | join(" ")' "$TMP/p.json")
[ "$(wc -w <<<"$isas")" -eq 1 ] && pass "read and read_swpf run one ISA: $isas" ||
	fail "read and read_swpf run different ISAs: $bw"
# Its CI: at least 6 blocks of each read in 0.3 s (a block is one pass over 64 MiB).
g=$(jq -r '.ratios[] | select(.ratio == "swpf_gain") | "\(.ci_lo) \(.ci_hi)"' "$TMP/p.json")
n=$(jq -r '[.bandwidth[].samples] | min' "$TMP/p.json")
case "$g" in
*null*|"") [ "$n" -lt 6 ] && echo "note: $n blocks only (a busy host): no CI, and the row says so" ||
	fail "swpf_gain without a CI over $n blocks: '$g'" ;;
*) pass "swpf_gain has a CI: $g" ;;
esac
if [ -n "$best" ]; then
	expect "that ISA is the one auto runs for read" "$isas" "$best"
else
	echo "note: 'pagehop list' names no auto ISA for read; not compared"
fi
finish
