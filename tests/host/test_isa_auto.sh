# SPDX-License-Identifier: GPL-2.0-only
# test_isa_auto.sh - what every bandwidth command runs without --isa is the
# rule of docs/methodology.md ("Which ISA auto runs"), worked out here from
# /proc/cpuinfo (vendor, family, flags), not from pagehop:
#   the widest of avx512 (avx512f), avx2 (avx2 and fma), sse2, scalar that
#   the CPU's flags name, except 512-bit on AMD families 0x19-0x1a
#   (25-26), where it is avx2, for every kernel and store kind.
# Checked on stream (every kernel, normal and nt stores), list's auto
# column, matrix's bandwidth_isa and survey's bandwidth rows; --isa still
# forces one.
. "$(dirname "$0")/lib.sh"

vendor=$(awk -F': *' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
family=$(awk -F': *' '/^cpu family/ { print $2; exit }' /proc/cpuinfo)
flags=" $(awk -F': *' '/^flags/ { print $2; exit }' /proc/cpuinfo) "
[ -n "$vendor" ] && [ -n "$family" ] || skip_test "SKIP: /proc/cpuinfo names no vendor or family"
has() { case $flags in *" $1 "*) return 0 ;; esac; return 1; }
if has avx512f && has avx2 && has fma; then widest=avx512
elif has avx2 && has fma; then widest=avx2
elif has sse2; then widest=sse2
else widest=scalar; fi
want=$widest
if [ "$vendor" = AuthenticAMD ] && [ "$family" -ge 25 ] && [ "$family" -le 26 ] && [ "$widest" = avx512 ]; then
	want=avx2
fi
echo "# $vendor family $family, widest $widest: auto should run $want"

# stream, every kernel, both store kinds (read runs as it is with --nt).
for nt in "" --nt; do
	"$PAGEHOP" stream $nt --size 16M --time 0.1 --threads 1 --format json >"$TMP/s.json" 2>"$TMP/err" ||
		fail "stream $nt: $(cat "$TMP/err")"
	expect "stream $nt without --isa: every kernel runs $want" \
		"$(jq -r '[.stream[] | "\(.kernel):\(.isa)"] | join(" ")' "$TMP/s.json")" \
		"$(jq -r --arg w "$want" '[.stream[] | "\(.kernel):\($w)"] | join(" ")' "$TMP/s.json")"
	expect "stream $nt: six kernels" "$(jq '.stream | length' "$TMP/s.json")" 6
	expect "stream $nt: says auto chose, with a reason per kernel" \
		"$(jq -r '.stream_method.isa_asked, ([.stream_method | keys[] | select(startswith("isa_auto_"))] | length)' "$TMP/s.json" | paste -sd' ')" \
		"auto 6"
done

# --isa still forces one, even where auto would not choose it.
"$PAGEHOP" stream --kernel triad --isa "$widest" --size 16M --time 0.1 --threads 1 --format json >"$TMP/f.json" 2>"$TMP/err" ||
	fail "stream --isa $widest: $(cat "$TMP/err")"
expect "stream --isa $widest forces it" "$(jq -r '.stream[0].isa, .stream_method.isa_asked' "$TMP/f.json" | paste -sd' ')" \
	"$widest forced (--isa)"

# list names the variant auto runs, once per kernel and store kind, and why.
"$PAGEHOP" list --format json >"$TMP/l.json"
expect "list: stream_auto names $want, once per kernel and store kind" \
	"$(jq -r '[.stream_auto[] | "\(.kernel) \(.nt) \(.isa)"] | join(",")' "$TMP/l.json")" \
	"$(jq -r --arg w "$want" '[.stream_kernels[] | select(.isa == $w) | "\(.kernel) \(.nt) \(.isa)"] | join(",")' "$TMP/l.json")"
expect "list: every choice has a reason" "$(jq -r '[.stream_auto[] | select((.why | length) < 10)] | length' "$TMP/l.json")" 0

# matrix (and so slit, which measures through it) on this machine's first node.
node=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | head -1 | sed 's/.*node//')
if [ -n "$node" ]; then
	"$PAGEHOP" matrix --figures triad --cpunodebind "$node" --membind "$node" --size 16M --time 0.1 \
		--threads 1 --page-size 4k --format json >"$TMP/m.json" 2>"$TMP/err" ||
		fail "matrix: $(cat "$TMP/err")"
	expect "matrix: bandwidth_isa is $want" "$(jq -r '.matrix.bandwidth_isa' "$TMP/m.json")" "$want"
fi

# survey's bandwidth rows name the ISA in their method.
if "$PAGEHOP" survey --format json >"$TMP/v.json" 2>"$TMP/err"; then
	expect "survey: bandwidth rows run $want" \
		"$(jq -r '[.survey[] | select(.figure | startswith("bandwidth_")) | .how | split(", ")[1]] | unique | join(",")' "$TMP/v.json")" \
		"$want"
else
	fail "survey: $(cat "$TMP/err")"
fi
finish
