# SPDX-License-Identifier: GPL-2.0-only
# test_stream_threads.sh - "pagehop stream --per-thread": a row per kernel and
# thread, each with the CPU the thread found itself on (sched_getcpu) equal
# to the buffers table's pinned CPU, its memory's node as read back, and the
# per-thread figures summing to the aggregate within their CIs (the
# intervals overlap).  No timing is asserted.
. "$(dirname "$0")/lib.sh"

threads=$(nproc)
[ "$threads" -gt 2 ] && threads=2
# 16 MiB a thread: chunks stay at their 64 KiB minimum, so the threads stop
# within a few microseconds of each other and per-thread times match the span.
"$PAGEHOP" stream --kernel triad,read --size $((16 * threads))M --time 0.5 --threads "$threads" \
	--per-thread --format json >"$TMP/p.json" 2>"$TMP/err" || fail "stream --per-thread: $(cat "$TMP/err")"
expect "a row per kernel and thread" "$(jq '.threads | length' "$TMP/p.json")" $((2 * threads))
expect "each thread's CPU read back is the one it was pinned to" \
	"$(jq -c '[.threads[] | select(.kernel == "triad") | .cpu]' "$TMP/p.json")" \
	"$(jq -c '[.buffers[].cpu]' "$TMP/p.json")"
expect "each thread's node is its memory's node as read back" \
	"$(jq -r '[.threads[].node | tostring] | unique | join(",")' "$TMP/p.json")" \
	"$(jq -r '[.stream[].node] | unique | join(",")' "$TMP/p.json")"
for k in triad read; do
	jq -e --arg k "$k" '
		(.stream[] | select(.kernel == $k)) as $agg |
		[.threads[] | select(.kernel == $k)] as $t |
		($t | map(.ci_lo_GBps) | add) <= $agg.ci_hi_GBps and
		($t | map(.ci_hi_GBps) | add) >= $agg.ci_lo_GBps' "$TMP/p.json" >/dev/null &&
		pass "$k: per-thread figures sum to the aggregate within the CIs: $(jq -r --arg k "$k" \
			'"\([.threads[] | select(.kernel == $k) | .bw_GBps] | add) against \(.stream[] | select(.kernel == $k) | "\(.bw_GBps) [\(.ci_lo_GBps), \(.ci_hi_GBps)]")"' "$TMP/p.json")" ||
		fail "$k: per-thread sum outside the aggregate's CI: $(jq -c '.stream, .threads' "$TMP/p.json")"
done
# Without the option, no such table.
"$PAGEHOP" stream --kernel read --size 16M --time 0.1 --threads 1 --format json >"$TMP/n.json" 2>"$TMP/err" ||
	fail "stream: $(cat "$TMP/err")"
expect "no threads table without --per-thread" "$(jq 'has("threads")' "$TMP/n.json")" false
finish
