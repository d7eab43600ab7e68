# SPDX-License-Identifier: GPL-2.0-only
# test_check_load.sh - a fault that really happens: a baseline recorded on
# a quiet machine, then check while a memory-bandwidth load (pagehop
# stream's triad, for a minute) runs on the last CPU.  The check's threads
# share that CPU and the memory with it: bandwidth drops beyond tolerance,
# and the verdict is WARNING or CRITICAL with a bandwidth figure out.
# Without the load the same check is OK.  The host is shared and noisy:
# each side gets a few tries, and passes on the first that says so.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: check measures on verified memory (pagemap)"
command -v jq >/dev/null || skip_test "needs jq"
last=$(($(nproc) - 1))
[ $last -ge 1 ] || skip_test "one CPU: no other CPU to load"
"$PAGEHOP" baseline --time 1 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
load=
trap '[ -n "$load" ] && kill $load 2>/dev/null; rm -rf "$TMP"' EXIT

check() {
	"$PAGEHOP" check --baseline "$TMP/b.json" --budget 12 --format json >"$TMP/c.json" 2>"$TMP/err"
	echo $?
}
out_bw() { jq -r '[.findings[] | select((.figure | startswith("bandwidth_")) and (.status == "WARNING" or .status == "CRITICAL")) | .figure] | join(",")' "$TMP/c.json"; }

ok=0
for try in 1 2 3 4; do
	"$PAGEHOP" stream --physcpubind "$last" --size 1G --kernel triad --time 60 --format csv >/dev/null 2>&1 &
	load=$!
	sleep 3
	rc=$(check)
	kill $load 2>/dev/null
	wait $load 2>/dev/null
	load=
	figs=$(out_bw)
	echo "loaded, try $try: exit $rc, bandwidth out: ${figs:-none}: $(jq -r .verdict.line "$TMP/c.json")"
	if { [ "$rc" = 1 ] || [ "$rc" = 2 ]; } && [ -n "$figs" ]; then
		ok=1
		break
	fi
done
[ $ok = 1 ] && pass "under load: $(jq -r .verdict.line "$TMP/c.json")" || fail "under load: never flagged"

ok=0
for try in 1 2 3 4; do
	rc=$(check)
	echo "quiet, try $try: exit $rc: $(jq -r .verdict.line "$TMP/c.json")"
	if [ "$rc" = 0 ]; then
		ok=1
		break
	fi
	sleep 5
done
[ $ok = 1 ] && pass "quiet: $(jq -r .verdict.line "$TMP/c.json")" || fail "quiet: never OK"
finish
