# SPDX-License-Identifier: GPL-2.0-only
# test_slit_scale.sh - "pagehop slit --input --slit" on 256 nodes: what
# Linux derives from the SLIT and from the proposal is summarised for people
# (no line of the kernel_view section, the kernel_fallback table or their
# notes longer than a wide terminal's 200 columns) and given in full in JSON (every
# pair beyond node_reclaim's distance, every node's whole fallback order),
# each count checked against a hand-worked answer; and the run takes less
# than 60 s of CPU time, a bound so generous that only a cost growing with a
# power of the node count beyond the analysis' own breaks it.
#
# The input: 256 nodes, 16 per socket, 64 per board.  The SLIT says 10 local,
# 12 within a socket and 20 for every other pair: no pair is beyond the
# reclaim distance 30.  The latency says 100 ns local, 120 within a socket,
# 250 within a board and 330 across boards: measured distances 10, 12, 25
# and 33, so the pairs on different boards are beyond it: all 256 * 255 / 2
# = 32640 pairs but the 4 * 64 * 63 / 2 = 8064 within a board, 24576.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip_test "jq missing"

n=256
ids=$(seq -s ' ' 0 $((n - 1)))
# cell I J -> "LATENCY DISTANCE" of CPU node I to memory node J.
{
	printf '# pagehop matrix\n# metric: latency_ns\n# rows: cpu node, columns: memory node\nnode,%s\n' "${ids// /,}"
	echo "node distances:"
	echo "node $ids"
} >"$TMP/head"
awk -v n=$n -v mx="$TMP/m.csv" -v sl="$TMP/s.txt" '
	NR <= 4 { print > mx; next }
	{ print > sl }
	END {
		for (i = 0; i < n; i++) {
			row = i; srow = i ":"
			for (j = 0; j < n; j++) {
				if (i == j) { l = 100; d = 10 }
				else if (int(i / 16) == int(j / 16)) { l = 120; d = 12 }
				else if (int(i / 64) == int(j / 64)) { l = 250; d = 20 }
				else { l = 330; d = 20 }
				row = row "," l; srow = srow " " d
			}
			print row > mx
			print srow > sl
		}
	}' "$TMP/head"

TIMEFORMAT='%U %S'
{ time "$PAGEHOP" slit --input "$TMP/m.csv" --slit "$TMP/s.txt" --format json \
	>"$TMP/out.json" 2>"$TMP/err"; } 2>"$TMP/time"
rc=$?
cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$TMP/time")
case $rc in 0 | 1 | 3) pass "256 nodes: a verdict (exit $rc)" ;; *) fail "256 nodes: exit $rc: $(tail -n 2 "$TMP/err")" ;; esac
[ "$(echo "$cpu < 60" | bc)" = 1 ] && pass "256 nodes, JSON: $cpu s of CPU time (bound 60 s)" ||
	fail "256 nodes, JSON: $cpu s of CPU time, more than 60 s"

jv() { jq -r "$1" "$TMP/out.json"; }
expect "JSON: no pair beyond the reclaim distance with the SLIT" "$(jv .kernel_view.beyond_reclaim_slit)" none
expect "JSON: every pair beyond it with the proposal, in full" \
	"$(jv '.kernel_view.beyond_reclaim_proposed | split(" ") | length')" 24576
expect "JSON: the pairs on different boards, each once" \
	"$(jv '[.kernel_view.beyond_reclaim_proposed | split(" ")[] | ltrimstr("{") | rtrimstr("}") | split(",")
		| map(tonumber) | select(.[0] < .[1] and ((.[0] / 64 | floor) != (.[1] / 64 | floor)))] | unique | length')" 24576
expect "JSON: the count beside it" "$(jv .kernel_view.beyond_reclaim_proposed_pairs)" 24576
expect "JSON: every node's whole fallback order, both tables" \
	"$(jv '[.kernel_fallback[] | (.slit_order, .proposed_order) | split(" ") | length] | unique | @csv')" 256
expect "JSON: node 0 falls back first to its socket with either table" \
	"$(jv '.kernel_fallback[0].proposed_order | split(" ")[0:16] | join(" ")')" "$(seq -s ' ' 0 15)"

{ time "$PAGEHOP" slit --input "$TMP/m.csv" --slit "$TMP/s.txt" --verbose >"$TMP/out.txt" 2>"$TMP/err"; } 2>"$TMP/time"
cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$TMP/time")
[ "$(echo "$cpu < 60" | bc)" = 1 ] && pass "256 nodes, table: $cpu s of CPU time (bound 60 s)" ||
	fail "256 nodes, table: $cpu s of CPU time, more than 60 s"
# The kernel_view section and the kernel_fallback table: from their titles to the next blank line.
awk '/^what Linux derives from the SLIT|^allocation fallback order per node/ { on = 1 }
	on && /^$/ { on = 0 } on || /^note: .*fallback order|^note: with the SLIT, node/ { print }' "$TMP/out.txt" >"$TMP/kernel.txt"
expect "table: the kernel's view and the fallback orders are there" \
	"$(grep -c -e '^what Linux derives' -e '^allocation fallback order' "$TMP/kernel.txt")" 2
long=$(awk 'length($0) > 200 { n++ } END { print n + 0 }' "$TMP/kernel.txt")
expect "table: no line of them, nor a note on them, longer than 200 columns (longest $(awk '{ m = length($0) > m ? length($0) : m } END { print m }' "$TMP/kernel.txt"))" "$long" 0
grep -q "beyond_reclaim_proposed .*{0,64} .*and 24[0-9]* more" "$TMP/kernel.txt" &&
	pass "table: the pairs beyond, summarised: $(grep -o 'beyond_reclaim_proposed .*' "$TMP/kernel.txt" | head -c 150)" ||
	fail "table: the pairs beyond, summarised: $(grep 'beyond_reclaim_proposed' "$TMP/kernel.txt" | head -c 300)"
nnotes=$(grep -c "^note: with the SLIT, node" "$TMP/kernel.txt")
[ "$nnotes" -ge 1 ] && [ "$nnotes" -le 8 ] && grep -q "^note: ... and [0-9]* more nodes whose fallback order differs" "$TMP/kernel.txt" &&
	pass "table: $nnotes notes on where a fallback order parts, then: $(grep -o '\.\.\. and [0-9]* more nodes.*' "$TMP/kernel.txt")" ||
	fail "table: $nnotes notes on fallback orders; $(grep -c '^note:' "$TMP/out.txt") notes in all"
finish
