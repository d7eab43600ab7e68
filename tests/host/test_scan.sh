# SPDX-License-Identifier: GPL-2.0-only
# test_scan.sh - "pagehop scan" on this host, without pagehop.ko: a small
# scan of the first node with memory says its coverage is partial, its
# ranges do not overlap, every range measured holds its frames inside it
# and on the node, judged here through a second path: the kernel's memory
# blocks of the node (/sys/devices/system/node/nodeN/memoryM, each
# block_size_bytes from M times it) must cover every frame address the
# range's readback found, from the first to the last; every range measured
# was read back where asked, with figures and CIs; the verdict is the first
# line, and the exit code follows it (a busy host may make a range stray:
# then the verdict names it).  Bad usage is exit 2.  No timing is asserted.
. "$(dirname "$0")/lib.sh"

[ -r /proc/self/pagemap ] && [ "$(id -u)" = 0 ] || skip_test "scan reads frames through pagemap: needs root"
[ -e /dev/pagehop ] && skip_test "pagehop.ko is loaded: this test is of the scan without it (the guest's scan covers the module)"
node=$(for n in /sys/devices/system/node/node*; do
	[ "$(awk '/MemTotal/ { print $4 }' "$n/meminfo")" -gt 0 ] && basename "$n" | tr -d node && break
done)
[ -n "$node" ] || skip_test "no node with memory"

"$PAGEHOP" scan --node "$node" --size 1G --range 1G --budget 3 --format json \
	>"$TMP/s.json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "scan exited $rc: $(cat "$TMP/err")"
verdict=$(jq -r '.scan_verdict.verdict' "$TMP/s.json")
case "$rc:$verdict" in
0:"NONE STRAY"* | 1:STRAYS* | 0:"CANNOT TELL"*) pass "exit $rc with verdict: ${verdict%%:*}" ;;
*) fail "exit $rc with verdict '$verdict'" ;;
esac
expect "coverage partial without the module" "$(jq -r '.scan_coverage[0].coverage' "$TMP/s.json")" partial
expect "the node asked" "$(jq -r '[.scan[].node] | unique | join(",")' "$TMP/s.json")" "$node"
pinned=$(jq '.scan_coverage[0].pinned_MiB' "$TMP/s.json")
[ "$pinned" -gt 0 ] && [ "$pinned" -le 1024 ] && pass "pinned $pinned MiB of at most 1024" || fail "pinned $pinned MiB"
measured=$(jq '[.scan[] | select(.measured)] | length' "$TMP/s.json")
[ "$measured" -ge 1 ] && pass "$measured ranges measured" || fail "no range measured: $(jq -c '.scan' "$TMP/s.json")"
jq -e '[.scan[] | select(.measured) | .verified and .bw_GBps > 0 and .lat_ns > 0 and .bw_ci_lo <= .bw_GBps and .bw_GBps <= .bw_ci_hi] | all' \
	"$TMP/s.json" >/dev/null && pass "every range measured: read back, figures within their CIs" ||
	fail "ranges: $(jq -c '[.scan[] | select(.measured)]' "$TMP/s.json")"

# Ranges apart, and each measured range's frames inside it and on the node's blocks.
bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
blocks=$(ls /sys/devices/system/node/node"$node" | sed -n 's/^memory\([0-9]*\)$/\1/p' | sort -n | paste -sd' ')
declare -A on
for b in $blocks; do on[$b]=1; done
prev=0 checked=0 bad=
while read -r lo hi m f l; do
	[ $((lo)) -ge "$prev" ] || bad="$bad; overlap at $lo"
	prev=$((hi))
	[ "$m" = true ] || continue
	if [ $((f)) -lt $((lo)) ] || [ $((l)) -gt $((hi)) ] || [ $((l)) -le $((f)) ]; then
		bad="$bad; frames $f-$l outside $lo-$hi"
		continue
	fi
	for ((blk = f / bs; blk * bs < l; blk++)); do
		[ -n "${on[$blk]:-}" ] || { bad="$bad; block $blk of $f-$l is not node $node's"; break; }
	done
	checked=$((checked + 1))
done < <(jq -r '.scan[] | "\(.range_lo) \(.range_hi) \(.measured) \(.first_frame // "-") \(.last_frame // "-")"' "$TMP/s.json")
[ -z "$bad" ] && echo "ok $checked" >"$TMP/frames" || echo "${bad#; }" >"$TMP/frames"
grep -q '^ok' "$TMP/frames" && pass "ranges apart; frames of $(cut -d' ' -f2 "$TMP/frames") ranges inside them, on node $node's memory blocks" ||
	fail "$(cat "$TMP/frames")"
ls /sys/firmware/dmi/entries/20-* >/dev/null 2>&1 ||
	expect "no DMI map: not exposed" "$(jq -r '[.scan[].dimm] | unique | join(",")' "$TMP/s.json")" "not exposed"
grep -q "scan" "$TMP/err" || [ ! -s "$TMP/err" ] || fail "stderr: $(head -3 "$TMP/err")"

# The table's first line is the verdict.
"$PAGEHOP" scan --node "$node" --size 512M --range 1G --budget 1 >"$TMP/t" 2>/dev/null
first=$(grep -v '^#' "$TMP/t" | grep -m1 'STRAYS\|NONE STRAY\|CANNOT TELL')
[ -n "$first" ] && [ "$(grep -v '^ *$' "$TMP/t" | head -2 | tail -1 | grep -c 'STRAYS\|NONE STRAY\|CANNOT TELL')" = 1 ] &&
	pass "the verdict comes first" || fail "table: $(head -3 "$TMP/t")"

usage_error "--range not a power of two" scan --range 3M
usage_error "--node without memory or absent" scan --node 4095
usage_error "--membind refused" scan --membind 0
usage_error "--budget 0" scan --budget 0
finish
