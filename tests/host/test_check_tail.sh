# SPDX-License-Identifier: GPL-2.0-only
# test_check_tail.sh - latency tails in pagehop baseline and pagehop check
# (--percentiles): a tail is claimed only with its CI (at least 10 runs
# beyond it: 1000 for p99, the rule written out by hand below) on a quiet
# host, and says why when not; a claimed tail is a figure of kind tail
# with its own tolerance; against a baseline whose tails were cut to a
# tenth, every tail check claimed is a WARNING (never CRITICAL) and every
# other is named as not judged, with why; without --percentiles nothing
# changes; a baseline without tails, or none at all, leaves the tails
# not judged, saying so.  What the host does decides which tails are
# claimed: the test judges each by what its own document says.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: check measures on verified memory (pagemap)"
command -v jq >/dev/null || skip_test "needs jq"
B=$TMP/b.json

# ---- usage: a tail is above 50 and below 100 ----
for bad in 50 40,50 99,100; do
	"$PAGEHOP" baseline --percentiles=$bad >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q -- "--percentiles" "$TMP/err" &&
		pass "baseline --percentiles=$bad refused: $(cat "$TMP/err")" ||
		fail "baseline --percentiles=$bad: exit $rc, stderr: $(cat "$TMP/err")"
done

# ---- baseline with tails ----
"$PAGEHOP" baseline --repeats 1 --time 0.5 --percentiles --save "$B" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -le 1 ] && [ -s "$B" ] || fail "baseline --percentiles: exit $rc: $(cat "$TMP/err")"
expect "baseline: a p99 tail row for every latency figure measured" \
	"$(jq '[.tails[] | select(.pct == 99)] | length' "$B")" \
	"$(jq '[.figures[] | select(.kind == "latency")] | length' "$B")"
# Claimed: 10 runs beyond p99 is n x 0.01 >= 10, n >= 1000, and a quiet host.
bad=$(jq '[.tails[] | select(.claimed == true and (.runs < 1000 or .batches < 6 or .host_quiet != true or .ci_lo_ns > .value_ns or .ci_hi_ns < .value_ns or .hops < 64 or .timer_ns <= 0))] | length' "$B")
expect "baseline: every claimed tail has 1000 runs or more in 6 batches or more, a quiet host, its CI around it, runs of 64 hops or more, a positive timer cost" "$bad" 0
bad=$(jq '[.tails[] | select(.claimed == false and ((.why_not | type) != "string" or (.runs >= 1000 and .batches >= 6 and .host_quiet == true)))] | length' "$B")
expect "baseline: every tail not claimed says why, and had too few runs or batches, or a busy host" "$bad" 0
claimed=$(jq -r '[.tails[] | select(.claimed == true) | .figure] | join(" ")' "$B")
expect "baseline: the claimed tails, and only they, are figures of kind tail, upper 0.5, lower open, in ns" \
	"$(jq -r '[.figures[] | select(.kind == "tail" and .upper == 0.5 and .lower == null and .unit == "ns") | .figure] | join(" ")' "$B")" \
	"$claimed"
pass "baseline: tails claimed: ${claimed:-none} ($(jq -r '[.tails[] | "\(.figure) \(.runs) runs quiet=\(.host_quiet)"] | join(", ")' "$B"))"

# ---- check against tails cut to a tenth ----
jq '(.figures[] | select(.kind == "tail") | .value, .ci_lo, .ci_hi, .rep_lo, .rep_hi) |= (if type == "number" then . / 10 else . end)' \
	"$B" >"$TMP/b10.json"
"$PAGEHOP" check --baseline "$TMP/b10.json" --percentiles --budget 15 --format json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
[ $rc -le 3 ] && jq -e .verdict "$TMP/c.json" >/dev/null || fail "check --percentiles: exit $rc: $(cat "$TMP/err")"
for t in $(jq -r '.tails[] | .figure' "$TMP/c.json"); do
	here=$(jq -r --arg t "$t" '.tails[] | select(.figure == $t) | .claimed' "$TMP/c.json")
	there=$(jq -r --arg t "$t" '[.figures[] | select(.figure == $t)] | length' "$TMP/b10.json")
	st=$(jq -r --arg t "$t" '[.findings[]? | select(.figure == $t) | .status] | join(",")' "$TMP/c.json")
	if [ "$here" = true ] && [ "$there" = 1 ]; then
		expect "check: $t, claimed here and ten times the baseline's, is a WARNING" "$st" WARNING
	else
		expect "check: $t (claimed here: $here, in the baseline: $there) is not judged" "$st" ""
		jq -r '.notes[]?' "$TMP/c.json" | grep -q "$t not judged: ." &&
			pass "check: $t says why it was not judged: $(jq -r '.notes[]?' "$TMP/c.json" | grep "$t not judged")" ||
			fail "check: $t: no note saying why it was not judged"
		jq -r .verdict.line "$TMP/c.json" | grep -q "left out:.*$t" &&
			pass "check: the line names $t as left out" || fail "check: the line does not name $t: $(jq -r .verdict.line "$TMP/c.json")"
	fi
done
expect "check: no tail is CRITICAL" "$(jq '[.findings[]? | select((.figure | startswith("tail_")) and .status == "CRITICAL")] | length' "$TMP/c.json")" 0

# ---- without --percentiles, no tail; without a baseline's tails, none judged ----
"$PAGEHOP" check --baseline "$TMP/b10.json" --budget 8 --format json >"$TMP/c0.json" 2>"$TMP/err"
expect "check without --percentiles: no tails table, no tail finding" \
	"$(jq '[(.tails // [])[], (.findings[]? | select(.figure | startswith("tail_")))] | length' "$TMP/c0.json")" 0
jq 'del(.figures[] | select(.kind == "tail")) | del(.tails)' "$B" >"$TMP/b0.json"
"$PAGEHOP" check --baseline "$TMP/b0.json" --percentiles --budget 8 --format json >"$TMP/c1.json" 2>"$TMP/err"
expect "check against a baseline without tails: no tail finding" \
	"$(jq '[.findings[]? | select(.figure | startswith("tail_"))] | length' "$TMP/c1.json")" 0
n=$(jq '[.tails[]? | select(.claimed == true)] | length' "$TMP/c1.json")
expect "check against a baseline without tails: each claimed tail says the baseline holds none" \
	"$(jq -r '.notes[]?' "$TMP/c1.json" | grep -c 'not judged: the baseline holds none')" "$n"
"$PAGEHOP" check --percentiles --budget 8 --format json >"$TMP/c2.json" 2>"$TMP/err"
n=$(jq '[.tails[]? | select(.claimed == true)] | length' "$TMP/c2.json")
expect "check without a baseline: each claimed tail says there is none to judge it against" \
	"$(jq -r '.notes[]?' "$TMP/c2.json" | grep -c 'not judged: no baseline')" "$n"
finish
