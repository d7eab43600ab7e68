# SPDX-License-Identifier: GPL-2.0-only
# test_check_load.sh - check on a host that something else loads: a CPU
# and memory load this test starts on the last CPU (stress-ng: one
# vm worker over 512 MiB and one CPU worker, both pinned there).  What
# must hold: no timed figure is judged CRITICAL for it (a figure the load
# explains is UNKNOWN, not judged), the load section says the host was
# busy, and the load's own process (a PID of the session the test
# started, named stress-ng*) is named among the busiest.  With --busy
# judge the same figures are judged all the same.  Without the load the
# figures are judged (--busy judge), and none of the test's processes is
# named (by PID: another stress-ng on the host is not the test's).
#
# The host is shared: other work may load it at any time, so without the
# load the test cannot say the host is quiet; it asserts only what is its
# own.  The baseline is taken first, whatever the host is doing, and its
# repeats and ci_met are checked on the way.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: check measures on verified memory (pagemap)"
command -v jq >/dev/null || skip_test "needs jq"
command -v stress-ng >/dev/null || skip_test "needs stress-ng (scripts/install-deps.sh check)"
last=$(($(nproc) - 1))
[ $last -ge 1 ] || skip_test "one CPU: no other CPU to load"
load=
trap '[ -n "$load" ] && kill -- -$load 2>/dev/null; rm -rf "$TMP"' EXIT

# ---- the baseline: repeats, ci_met never null ----
"$PAGEHOP" baseline --time 0.3 --repeats 2 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
expect "baseline: ci_met is true or false in every figure" \
	"$(jq '[.figures[] | select(.ci_met != true and .ci_met != false)] | length' "$TMP/b.json")" 0
expect "baseline: each timed figure has 2 repeats, its value among them" \
	"$(jq '[.figures[] | select(.samples != null) | select(.repeats != 2 or .rep_lo > .value or .rep_hi < .value)] | length' "$TMP/b.json")" 0
expect "baseline: the load was read" "$(jq .load.read "$TMP/b.json")" true

timed='select(.figure | test("^(latency|bandwidth)_"))'
check() {	# ARGS...: check --format json into $TMP/c.json; echoes the exit code
	"$PAGEHOP" check --baseline "$TMP/b.json" --budget 10 --format json "$@" >"$TMP/c.json" 2>"$TMP/err"
	echo $?
}
ours() {	# the PIDs of the test's load named in load_processes, with their names
	local pids
	pids=$(ps -o pid= -s "$load" 2>/dev/null | tr -s ' \n' ' ')
	jq -r --arg p " $pids " '.load_processes[] | select(.pid as $id | ($p | contains(" \($id) ")) and (.name | startswith("stress-ng"))) | "\(.name)[\(.pid)]"' \
		"$TMP/c.json" | tr '\n' ' '
}

# ---- under the test's load ----
setsid stress-ng --vm 1 --vm-bytes 512M --cpu 1 --taskset "$last" --timeout 300 >/dev/null 2>&1 &
load=$!
sleep 2
kill -0 "$load" 2>/dev/null || fail "stress-ng did not start"
named=
for try in 1 2 3; do
	rc=$(check)
	line=$(jq -r .verdict.line "$TMP/c.json")
	echo "loaded, try $try: exit $rc: $line"
	crit=$(jq -r "[.findings[] | $timed | select(.status == \"CRITICAL\") | .why] | join(\"; \")" "$TMP/c.json")
	[ -z "$crit" ] || fail "loaded, try $try: a timed figure judged CRITICAL: $crit"
	expect "loaded, try $try: the load section says busy" "$(jq .load.busy "$TMP/c.json")" true
	bad=$(jq -r "[.findings[] | $timed | select(.status == \"UNKNOWN\" and (.why | contains(\"not judged: the host was busy\") | not)) | .why] | join(\"; \")" "$TMP/c.json")
	[ -z "$bad" ] || fail "loaded, try $try: an UNKNOWN timed figure without the load named: $bad"
	named=$(ours)
	# Other work on the host may outrank the test's load in the top eight.
	[ -n "$named" ] && break
done
[ -n "$named" ] && pass "loaded: the test's load is named: $named" ||
	fail "loaded: none of the test's stress-ng processes among the busiest: $(jq -c .load_processes "$TMP/c.json")"
unjudged=$(jq "[.findings[] | $timed | select(.why | contains(\"not judged\"))] | length" "$TMP/c.json")
if [ "$unjudged" -gt 0 ]; then
	case $line in
	*"not judged: the host was busy"*"busiest: "*) pass "loaded: the first line names the load: $line" ;;
	"PAGEHOP UNKNOWN"*) fail "loaded: UNKNOWN line without the load: $line" ;;
	*) pass "loaded: the first line is another finding's: $line" ;;
	esac
fi

rc=$(check --busy judge)
echo "loaded, --busy judge: exit $rc: $(jq -r .verdict.line "$TMP/c.json")"
expect "loaded, --busy judge: no timed figure left unjudged" \
	"$(jq "[.findings[] | $timed | select(.status == \"UNKNOWN\" or (.why | contains(\"not judged\")))] | length" "$TMP/c.json")" 0
# The load's PIDs, to look for after it ended: other stress-ng runs on the
# host are not the test's to judge.
ourpids=" $(ps -o pid= -s "$load" 2>/dev/null | tr -s ' \n' ' ') "
kill -- -"$load" 2>/dev/null
wait "$load" 2>/dev/null
load=

# ---- without it ----
rc=$(check --busy judge)
echo "unloaded, --busy judge: exit $rc: $(jq -r .verdict.line "$TMP/c.json")"
n=$(jq "[.findings[] | $timed] | length" "$TMP/c.json")
expect "unloaded, --busy judge: every timed figure measured is judged ($n)" \
	"$(jq "[.findings[] | $timed | select(.status == \"UNKNOWN\")] | length" "$TMP/c.json")" 0
expect "unloaded: none of the test's load processes among the busiest" \
	"$(jq --arg p "$ourpids" '[.load_processes[] | select(.pid as $id | $p | contains(" \($id) "))] | length' "$TMP/c.json")" 0
finish
