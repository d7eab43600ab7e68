# SPDX-License-Identifier: GPL-2.0-only
# test_goaround.sh - "pagehop goaround" on this host: a row per turn, each
# thread's block (t + turn) mod T, the CPUs' nodes by sysfs (not hwloc or
# libnuma), the remote share and mean hops recomputed from the threads
# table, the per-thread figures against the aggregate, and bad input.
# No timing is asserted.
. "$(dirname "$0")/lib.sh"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip_test "SKIP: goaround needs 2 CPUs, this host has $ncpu"
node_of() { basename /sys/devices/system/cpu/cpu$1/node* | tr -d node; }

if ! "$PAGEHOP" goaround --threads 2 --size-per-thread 16M --time 0.2 --format json \
	>"$TMP/g.json" 2>"$TMP/err"; then
	fail "goaround --threads 2: $(cat "$TMP/err")"
	finish
fi
expect "default turns for T=2" "$(jq -c '[.goaround[].turn]' "$TMP/g.json")" "[0,1]"
expect "threads per turn" "$(jq -c '[.goaround[].threads]' "$TMP/g.json")" "[2,2]"
expect "a threads row per turn and thread" "$(jq '.threads | length' "$TMP/g.json")" 4
expect "block_of = (thread + turn) mod 2" \
	"$(jq -c '[.threads[] | .block_of == ((.thread + .turn) % 2)] | all' "$TMP/g.json")" true
for row in $(jq -c '.threads[]' "$TMP/g.json"); do
	cpu=$(echo "$row" | jq .cpu)
	expect "CPU $cpu's node by sysfs" "$(echo "$row" | jq .cpu_node)" "$(node_of "$cpu")"
done
# Turn 0: every block on its own thread's node (checked before the run).
expect "turn 0 local" "$(jq -c '[.threads[] | select(.turn == 0) | .cpu_node == .mem_node] | all' "$TMP/g.json")" true
# The block's node is that of its owner at turn 0.
jq -e '. as $d | ([$d.threads[] | select(.turn == 0) | {(.thread | tostring): .mem_node}] | add) as $home |
	[$d.threads[] | .mem_node == $home[.block_of | tostring]] | all' "$TMP/g.json" >/dev/null &&
	pass "each block stays on its owner's node" || fail "blocks: $(jq -c .threads "$TMP/g.json")"
# Remote share and mean hops per turn, recomputed from the threads rows.
jq -e '. as $d | [.goaround[] | .turn as $k |
	([$d.threads[] | select(.turn == $k)]) as $r |
	(.remote_threads == ([$r[] | select(.cpu_node != .mem_node)] | length)) and
	((.remote_share - .remote_threads / ($r | length)) | fabs) < 0.001 and
	((.mean_hops - ([$r[].hops] | add) / ($r | length)) | fabs) < 0.001 and
	((.mean_distance - ([$r[].distance] | add) / ($r | length)) | fabs) < 0.01] | all' \
	"$TMP/g.json" >/dev/null && pass "remote share and hops from the threads rows" ||
	fail "shares: $(jq -c .goaround "$TMP/g.json")"
# The threads' own figures share the aggregate's span: each sample of the
# aggregate is the sum of the threads' samples of the same run, so the
# interval the threads' CIs add up to overlaps the aggregate's CI.  With
# 2 threads and n samples whose CI ranks are j and n+1-j, at least
# n+2-2j runs lie above both threads' lower bounds at once, which is j or
# more while 3j <= n+2 (every n up to 41; --time 0.2 takes about 20): the
# aggregate's upper bound cannot be below their sum, and the same the
# other way.  Over their own times instead of the span, the threads would
# add up to far more than ran at once.  A busy host may leave a figure
# fewer samples than a CI takes (6): it then has none, and there is no
# sum to judge for that turn.
jq -e '. as $d | [.goaround[] | .turn as $k |
	[$d.threads[] | select(.turn == $k)] as $t |
	([., $t[]] | map(select(.ci_lo_GBps == null or .ci_hi_GBps == null))) as $noci |
	.samples <= 41 and
	if ($noci | length) > 0 then ($noci | map(.samples < 6) | all) else
	($t | map(.ci_lo_GBps) | add) <= .ci_hi_GBps + 0.02 and
	($t | map(.ci_hi_GBps) | add) >= .ci_lo_GBps - 0.02 end] | all' \
	"$TMP/g.json" >/dev/null && pass "per-thread figures add up to the aggregate" ||
	fail "sums: $(jq -c '.goaround, .threads' "$TMP/g.json")"
expect "verified and valid" "$(jq -c '[.goaround[] | .verified and .valid] | all' "$TMP/g.json")" true

# --turns picks turns.
"$PAGEHOP" goaround --threads 2 --turns 1 --size-per-thread 4M --time 0.1 --format json \
	>"$TMP/t.json" 2>"$TMP/err" || fail "--turns 1: $(cat "$TMP/err")"
expect "--turns 1" "$(jq -c '[.goaround[].turn]' "$TMP/t.json")" "[1]"

usage_error "turn not below T" goaround --threads 2 --turns 2 --size-per-thread 1M
usage_error "turns not ascending" goaround --threads 2 --turns 1,0
usage_error "empty turn" goaround --turns 0,,1
usage_error "more threads than CPUs" goaround --threads $((ncpu + 1)) --size-per-thread 1M
usage_error "unknown placement" goaround --placement spread
usage_error "--membind refused" goaround --membind 0
usage_error "--size refused" goaround --size 1G
usage_error "unknown kernel" goaround --kernel fma
usage_error "size per thread too small" goaround --threads 2 --size-per-thread 64
smt=no
for c in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
	case $(cat "$c") in *,* | *-*) smt=yes ;; esac
done
if [ $smt = no ]; then
	"$PAGEHOP" goaround --placement shared --threads 2 --size-per-thread 1M >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 4 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		pass "shared without SMT: exit 4: $(cat "$TMP/err")"
	else
		fail "shared without SMT: exit $rc: $(cat "$TMP/err")"
	fi
fi
finish
