# SPDX-License-Identifier: GPL-2.0-only
# test_signals.sh - signals and --reserve: for SIGINT, SIGTERM, SIGHUP and
# SIGQUIT, a run whose 2 MiB pool on node 0 must grow is stopped while it
# lays out its memory, builds its chain and measures; it must end within
# 1 s of the signal, exit 130, and leave node 0's pool as it was.  The pool
# must be put back as well after a second signal (at once), a crash (SIGSEGV,
# SIGABRT), every other signal whose default ends the process (USR1, USR2,
# ALRM, XCPU, VTALRM, PROF, XFSZ), and a reader that goes away (EPIPE through
# a real pipe, exit 1).  A growth past the node's 5% floor is refused, and
# two --reserve runs at once take turns and leave the pool as it was.
# The pool is read straight from sysfs, not from anything pagehop says.
. "$(dirname "$0")/lib.sh"

NR=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
FREE=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages
[ -e "$NR" ] || skip_test "no 2 MiB hugetlb pool on node 0 ($NR)"
[ "$(id -u)" -eq 0 ] || skip_test "growing a hugetlb pool needs root"
# Another --reserve run (another pagehop build on a shared machine need not
# take the lock) would change the pool under the test: let it finish first.
for ((i = 0; i < 300; i++)); do
	pgrep -f -- 'pagehop .*--reserve' >/dev/null || break
	sleep 1
done
pgrep -af -- 'pagehop .*--reserve' && skip_test "another pagehop --reserve run holds the pool"
orig=$(cat "$NR")
trap 'echo "$orig" >"$NR"; rm -rf "$TMP"' EXIT
# No free page in the pool: every run below must grow it.
echo $((orig - $(cat "$FREE"))) >"$NR" || skip_test "cannot write $NR"
before=$(cat "$NR")
[ "$(cat "$FREE")" -eq 0 ] || skip_test "cannot empty node 0's 2 MiB pool: $(cat "$FREE") pages stay free"
echo "node 0 2 MiB pool: $orig pages at the start, $before (none free) for the test"

# alive PID: running, not yet a zombie.
alive() { [ -e /proc/$1/stat ] && [ "$(cut -d' ' -f3 /proc/$1/stat 2>/dev/null)" != Z ]; }
ntasks() { ls /proc/$1/task 2>/dev/null | wc -l; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_for PID COND SECONDS: until COND (a shell expression) holds or PID ends.
wait_for() {
	local pid=$1 cond=$2 i
	for ((i = 0; i < $3 * 100; i++)); do
		alive "$pid" || return 1
		eval "$cond" && return 0
		sleep 0.01
	done
	return 1
}

# stop DESC SIG THREADS DELAY ARGS...: start pagehop ARGS, wait until its
# pool grew and it has THREADS tasks (2: its worker threads are up and it
# builds its chain; 1: it is still laying out its memory), wait DELAY s
# more, send SIG, then check the stop time, exit code and pool.
stop() {
	local desc=$1 sig=$2 tasks=$3 delay=$4 pid t0 t1 ms rc msg
	shift 4
	"$PAGEHOP" "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if ! wait_for $pid "[ \$(cat $NR) -gt $before ] && [ \$(ntasks $pid) -ge $tasks ]" 60; then
		wait $pid
		fail "$desc: ended (exit $?) before it grew the pool and started its threads: $(cat "$TMP/err")"
		echo "$before" >"$NR"
		return
	fi
	sleep "$delay"
	t0=$(now_ms)
	kill -"$sig" $pid
	for ((i = 0; i < 1000; i++)); do alive $pid || break; sleep 0.01; done
	t1=$(now_ms)
	alive $pid && kill -KILL $pid
	wait $pid
	rc=$?
	ms=$((t1 - t0))
	msg=$(grep -v warning "$TMP/err" | tail -n 1)
	if [ $ms -le 1000 ] && [ $rc -eq 130 ] && [ "$(cat "$NR")" -eq "$before" ]; then
		pass "$desc: SIG$sig, stopped in $ms ms, exit $rc, pool back to $before${msg:+; said: $msg}"
	else
		fail "$desc: SIG$sig, stopped in $ms ms (want <= 1000), exit $rc (want 130), pool $(cat "$NR") (want $before); stderr: $(tail -n 3 "$TMP/err")"
		echo "$before" >"$NR"
	fi
}

# A SIGHUP ignored on entry (the run started under nohup) stays ignored in
# pagehop, as nohup asks: its cases are then left out, with that reason.
sigs="INT TERM HUP QUIT"
if (( 0x$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status) & 1 )); then
	pass "SIGHUP cases left out: this test runs with SIGHUP ignored (nohup), which pagehop inherits"
	sigs="INT TERM QUIT"
fi
for sig in $sigs; do
	# 1 GiB of 2 MiB pages: faulting it in and reading back where each 4 KiB
	# of it is takes seconds, and so do building and checking the chain.
	stop "chase, faulting in and reading back" $sig 1 0.3 \
		chase --reserve --page-size 2m --size 1G --time 30 --format json
	stop "chase, building the chain" $sig 2 0.2 \
		chase --reserve --page-size 2m --size 1G --time 30 --format json
	stop "chase, measuring" $sig 2 1.5 \
		chase --reserve --page-size 2m --size 64M --time 30 --ci 0.001 --format json
	[ $sig = INT ] && { jq -e '.chase[0].samples > 0 and (.notes | any(test("interrupted")))' \
		"$TMP/out" >/dev/null && pass "chase SIGINT: the samples so far and the note" ||
		fail "chase SIGINT output: $(head -c 300 "$TMP/out")"; }
	stop "matrix, building the chain" $sig 2 0.2 \
		matrix --reserve --page-size 2m --size 1G --figures latency --time 30 --format json
	stop "matrix, measuring bandwidth" $sig 2 1.5 \
		matrix --reserve --page-size 2m --size 64M --figures read --time 30 --ci 0.001 --format json
	stop "stream, measuring" $sig 2 1.5 \
		stream --reserve --page-size 2m --size 64M --kernel triad --time 30 --ci 0.001 --format json
done

# A second signal does not wait for the first to be acted on: the process
# ends at once (nothing on stdout), still with the pool put back.  Two
# different signals, as two of the same may merge into one.  Both are sent
# while the process is stopped, so that both are pending when it resumes:
# sent one after the other to a running process, the first can be acted on
# in full (output written) before the second arrives on a loaded host.
"$PAGEHOP" chase --reserve --page-size 2m --size 1G --time 30 --format json >"$TMP/out" 2>"$TMP/err" &
pid=$!
if wait_for $pid "[ \$(cat $NR) -gt $before ] && [ \$(ntasks $pid) -ge 2 ]" 60; then
	kill -STOP $pid
	kill -INT $pid
	kill -TERM $pid
	kill -CONT $pid
	wait $pid
	rc=$?
	expect "second signal: exit" $rc 130
	expect "second signal: pool back" "$(cat "$NR")" "$before"
	expect "second signal: nothing printed" "$(wc -c <"$TMP/out")" 0
else
	fail "second signal: the run did not start: $(cat "$TMP/err")"
fi

# A crash (a fatal signal pagehop does not catch to stop cleanly) still
# puts the pool back before the process dies of it.  --ci 0.001 keeps the
# run measuring for its whole --time, so that it is alive when the signal
# comes on a quiet machine too.
for sig in SEGV ABRT; do
	(ulimit -c 0; exec "$PAGEHOP" chase --reserve --page-size 2m --size 64M --time 30 --ci 0.001 --format json) \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if wait_for $pid "[ \$(cat $NR) -gt $before ] && [ \$(ntasks $pid) -ge 2 ]" 60; then
		sleep 0.5
		kill -$sig $pid
		wait $pid
		rc=$?
		expect "SIG$sig: the process died of it" $rc $((128 + $(kill -l $sig)))
		expect "SIG$sig: pool back" "$(cat "$NR")" "$before"
	else
		fail "SIG$sig: the run did not start: $(cat "$TMP/err")"
	fi
	echo "$before" >"$NR"
done

# The signals whose default is to end the process, that pagehop does not
# catch to stop cleanly: after a pool was grown, each puts it back before
# the process dies of it.  A case whose pool differs afterwards is run once
# more: another process (another test on a shared machine) may have changed
# the pool meanwhile; a second difference is pagehop's.  Each attempt
# starts from a pool with no free page, so that the run must grow it.
# empty_pool: write node 0's pool down to its pages in use; at_start is then its size.
empty_pool() {
	echo $(($(cat "$NR") - $(cat "$FREE"))) >"$NR"
	at_start=$(cat "$NR")
}
# die_case SIG: 0 when the run grew the pool, died of SIG and left it as it was.
die_case() {
	local sig=$1 pid rc
	empty_pool
	(ulimit -c 0; exec "$PAGEHOP" chase --reserve --page-size 2m --size 64M --time 30 --ci 0.001 --format json) \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if ! wait_for $pid "[ \$(cat $NR) -gt $at_start ] && [ \$(ntasks $pid) -ge 2 ]" 60; then
		wait $pid
		why="the run did not start (exit $?): $(cat "$TMP/err")"
		return 1
	fi
	sleep 0.5
	kill -"$sig" $pid
	wait $pid
	rc=$?
	why="exit $rc (want $((128 + $(kill -l "$sig")))), pool $(cat "$NR") (want $at_start); stderr: $(tail -n 2 "$TMP/err")"
	[ $rc -eq $((128 + $(kill -l "$sig"))) ] && [ "$(cat "$NR")" -eq "$at_start" ]
}
for sig in USR1 USR2 ALRM XCPU VTALRM PROF XFSZ; do
	if die_case $sig || { echo "$at_start" >"$NR"; die_case $sig; }; then
		pass "SIG$sig: died of it, the pool put back first"
	else
		fail "SIG$sig: $why"
		echo "$at_start" >"$NR"
	fi
done

# A reader that goes away (pagehop ... | true): the output fails with EPIPE,
# which is said in one line, and the command exits 1 with the pool put back,
# rather than dying of SIGPIPE while the pool is grown.
# pipe_case: 0 when the run grew the pool, exited 1 saying why and left it as it was.
pipe_case() {
	local rc grew=0 i
	empty_pool
	rm -f "$TMP/rc"
	{ "$PAGEHOP" chase --reserve --page-size 2m --size 64M --time 1 --ci 0.001 --format json \
		2>"$TMP/err"; echo $? >"$TMP/rc"; } | true &
	for ((i = 0; i < 6000; i++)); do
		[ "$(cat "$NR")" -gt "$at_start" ] && grew=1
		[ -s "$TMP/rc" ] && break
		sleep 0.01
	done
	wait
	rc=$(cat "$TMP/rc" 2>/dev/null)
	why="grew the pool: $grew, exit ${rc:-none} (want 1), pool $(cat "$NR") (want $at_start); stderr: $(tail -n 2 "$TMP/err")"
	[ $grew -eq 1 ] && [ "$rc" = 1 ] && [ "$(cat "$NR")" -eq "$at_start" ] &&
		grep -q "cannot write to standard output: Broken pipe" "$TMP/err"
}
if pipe_case || { echo "$at_start" >"$NR"; pipe_case; }; then
	pass "stdout a closed pipe: $(tail -n 1 "$TMP/err"), exit 1, the pool put back"
else
	fail "stdout a closed pipe: $why"
	echo "$at_start" >"$NR"
fi

# A growth that would leave node 0 less than 5% free is refused, with that
# reason, before the pool is touched.
node_kb() { awk -v k="$1:" '$3 == k { print $4 }' /sys/devices/system/node/node0/meminfo; }
total=$(($(node_kb MemTotal) * 1024)) free=$(($(node_kb MemFree) * 1024))
size=$(( (free - total / 20 + 512 * 1024 * 1024) / (2 * 1024 * 1024) * 2 ))M
"$PAGEHOP" chase --reserve --page-size 2m --size "$size" --threads 1 --time 0.2 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ] && [ ! -s "$TMP/out" ] && grep -q "less than 5% of its" "$TMP/err"; then
	pass "growth past the 5% floor refused: $(cat "$TMP/err")"
else
	fail "growth past the 5% floor ($size): exit $rc, stderr: $(cat "$TMP/err")"
fi
expect "growth past the 5% floor: pool untouched" "$(cat "$NR")" "$before"

# Two --reserve runs at once: the second waits for the first to put the pool
# back, then grows it itself; at the end the pool is as before.  The first
# measures for its whole 3 s (--ci 0.001): stopping at a tight CI, it could
# be done (setup 0.2 s) before the second asks for the pool.
"$PAGEHOP" chase --reserve --page-size 2m --size 64M --time 3 --ci 0.001 --format json \
	>"$TMP/a.json" 2>"$TMP/a.err" &
a=$!
wait_for $a "[ \$(cat $NR) -gt $before ]" 30 || fail "first run did not grow the pool: $(cat "$TMP/a.err")"
"$PAGEHOP" chase --reserve --page-size 2m --size 64M --time 2 --format json >"$TMP/b.json" 2>"$TMP/b.err" &
b=$!
wait $a
ra=$?
wait $b
rb=$?
expect "two --reserve runs: both measured" "$ra $rb" "0 0"
expect "two --reserve runs: pool as before" "$(cat "$NR")" "$before"
grep -q "waiting for" "$TMP/b.err" && pass "second run waited: $(cat "$TMP/b.err")" ||
	fail "second run did not say it waited: $(cat "$TMP/b.err")"
finish
