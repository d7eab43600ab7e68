# SPDX-License-Identifier: GPL-2.0-only
# test_compare.sh - pagehop compare on the synthetic fleet of
# tests/data/compare (make.py): the host made to stray is ranked, with its
# figure, exit 1; the 20 normal ones alone give exit 0; operands mix with
# options; bad usage is exit 2 in one line.  What a real fleet brings:
# a truncated document among 20 is skipped and named, the rest compared,
# exit 5; a host's two documents: its newest (time_utc) is used, the older
# named, and four copies of the straying host count once; a model of one
# host is UNKNOWN with the hosts it needs; a directory of 6,000 documents
# (fleet.py, the hosts it makes stray known) is compared with the CPU time
# of O(N log N): a bound only a quadratic algorithm breaks (it took 90 s).
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip_test "needs jq"
D=$PAGEHOP_ROOT/tests/data/compare

"$PAGEHOP" compare --format json --k 4 "$D" >"$TMP/c.json" 2>"$TMP/err"
expect "a host strays: exit 1" "$?" 1
expect "the one made to stray, ranked first, with its figure" \
	"$(jq -r '.hosts[] | "\(.rank) \(.host) \(.figures)"' "$TMP/c.json")" "1 stray node 1 bandwidth_triad -21%"
# stray_tols: |dev_pct| / |tol_pct| of its furthest figure, to the 0.1 printed
expect "stray_tols is the deviation over the tolerance" \
	"$(jq '[.outliers[0] | .dev_pct / .tol_pct * 10 | round / 10] == [.hosts[0].stray_tols]' "$TMP/c.json")" true
"$PAGEHOP" compare "$D" --verbose >"$TMP/c.txt" 2>"$TMP/err"
expect "the table's stray column says its unit" \
	"$(grep -c 'stray_tols' "$TMP/c.txt")" 3
"$PAGEHOP" compare "$D"/host*.json -f json >"$TMP/c.json" 2>"$TMP/err"
expect "20 normal hosts: exit 0" "$?" 0
expect "20 normal hosts: none strays" "$(jq '.hosts | length' "$TMP/c.json")" 0
expect "20 normal hosts: the model is OK, nothing skipped" \
	"$(jq -r '"\(.models[0].status) \(.models[0].hosts) \(.summary.skipped) \(.summary.older_left_out)"' "$TMP/c.json")" "OK 20 0 0"

# A truncated document among 20: skipped and named, the other 19 compared.
mkdir "$TMP/t"
cp "$D"/host0*.json "$D"/host1[0-9].json "$TMP/t/"
head -c 300 "$D/host20.json" >"$TMP/t/host20.json"
"$PAGEHOP" compare -f json "$TMP/t" >"$TMP/c.json" 2>"$TMP/err"
expect "one truncated among 20: exit 5 (skipped)" "$?" 5
expect "one truncated among 20: named on stderr" \
	"$(grep -c "warning: skipped $TMP/t/host20.json: not JSON" "$TMP/err")" 1
expect "one truncated among 20: in the skipped table" \
	"$(jq -r '.skipped | map(.file) | join(" ")' "$TMP/c.json")" "$TMP/t/host20.json"
expect "one truncated among 20: in a note" \
	"$(jq '[.notes[] | select(startswith("1 document(s) skipped") and contains("host20.json"))] | length' "$TMP/c.json")" 1
expect "one truncated among 20: the 19 others compared" \
	"$(jq -r '"\(.summary.documents) \(.summary.skipped) \(.models[0].hosts)"' "$TMP/c.json")" "19 1 19"
cp "$D/stray.json" "$TMP/t/"
"$PAGEHOP" compare "$TMP/t" --verbose >"$TMP/c.txt" 2>"$TMP/err"
expect "a stray and a truncated document: exit 1, the stray first" "$?" 1
expect "a stray and a truncated document: the skipped one in the table's notes" \
	"$(grep -c '^note: 1 document(s) skipped, the rest compared: .*host20.json: not JSON' "$TMP/c.txt")" 1

# Two documents of one host: the newest by time_utc, whatever the file names.
mkdir "$TMP/d"
cp "$D"/host0*.json "$TMP/d/"
jq '.provenance.time_utc = "2026-03-02T10:00:00Z"' "$D/host05.json" >"$TMP/d/a-new.json"
jq '.provenance.time_utc = "2026-03-01T10:00:00Z" |
	(.figures[] | select(.figure == "bandwidth_triad" and .node == 1) | .value, .ci_lo, .ci_hi) |= . * 0.75' \
	"$D/host05.json" >"$TMP/d/z-old.json"
rm "$TMP/d/host05.json"
"$PAGEHOP" compare -f json "$TMP/d" >"$TMP/c.json" 2>"$TMP/err"
expect "two documents of host05, the older straying: the newer used, exit 0" "$?" 0
expect "two documents of host05: the older named with the one used" \
	"$(jq -r '.older[] | "\(.host) \(.file) \(.time_utc) \(.used_file)"' "$TMP/c.json")" \
	"host05 $TMP/d/z-old.json 2026-03-01T10:00:00Z $TMP/d/a-new.json"
expect "two documents of host05: a note names the older" \
	"$(jq '[.notes[] | select(contains("z-old.json (2026-03-01T10:00:00Z) for"))] | length' "$TMP/c.json")" 1
expect "two documents of host05: 9 hosts of 10 documents" \
	"$(jq -r '"\(.summary.documents) \(.summary.hosts) \(.summary.older_left_out)"' "$TMP/c.json")" "10 9 1"
jq '.provenance.time_utc = "2026-03-03T10:00:00Z"' "$TMP/d/z-old.json" >"$TMP/d/z-newest.json"
"$PAGEHOP" compare -f json "$TMP/d" >"$TMP/c.json" 2>"$TMP/err"
expect "host05's straying document made the newest: it strays, exit 1" \
	"$(jq -r '.hosts[] | "\(.host) \(.file)"' "$TMP/c.json")" "host05 $TMP/d/z-newest.json"

# Four copies of the straying host's document beside 5 normal ones: counted
# four times they would pull the median to it; once, it strays.
mkdir "$TMP/four"
cp "$D"/host0[1-5].json "$TMP/four/"
for i in 1 2 3 4; do cp "$D/stray.json" "$TMP/four/stray$i.json"; done
"$PAGEHOP" compare -f json "$TMP/four" >"$TMP/c.json" 2>"$TMP/err"
expect "four copies of a straying host: it strays, exit 1" "$?" 1
expect "four copies of a straying host: the host ranked, from its last file" \
	"$(jq -r '"\(.summary.hosts_straying) \(.hosts[0].host) \(.hosts[0].file)"' "$TMP/c.json")" \
	"1 stray $TMP/four/stray4.json"
expect "four copies of a straying host: three left out" \
	"$(jq -r '"\(.summary.hosts) \(.summary.older_left_out)"' "$TMP/c.json")" "6 3"

# A lone model: UNKNOWN for it, with the hosts it needs; the others judged.
"$PAGEHOP" compare -f json "$D"/host*.json "$D/other1.json" >"$TMP/c.json" 2>"$TMP/err"
expect "a lone model: exit 5 (not everything judged)" "$?" 5
expect "a lone model: UNKNOWN with the hosts it needs" \
	"$(jq -r '.models[] | "\(.status) \(.hosts) \(.needs_hosts)"' "$TMP/c.json")" "OK 20 3
UNKNOWN 1 3"
expect "a lone model: counted in the summary" "$(jq '.summary.models_unknown' "$TMP/c.json")" 1
"$PAGEHOP" compare "$D"/host*.json "$D/other1.json" --verbose >"$TMP/c.txt" 2>"$TMP/err"
expect "a lone model: UNKNOWN in the table" \
	"$(grep -cE '^  cpu=Other CPU 1234;sockets=1;nodes=1;node0=16x1 +UNKNOWN +1 +3 ' "$TMP/c.txt")" 1

# A directory of 6,000: the hosts fleet.py made stray, found, in CPU time
# far from a quadratic's.
if command -v python3 >/dev/null; then
	python3 "$D/fleet.py" 6000 "$TMP/big" --stray-every 1000 --seed 3
	TIMEFORMAT='%U %S'
	cpu=$({ time "$PAGEHOP" compare -f json "$TMP/big" >"$TMP/c.json" 2>"$TMP/err"; } 2>&1)
	expect "6,000 documents: the six made to stray, exit 1" \
		"$(jq -r '[.hosts[].host] | sort | join(" ")' "$TMP/c.json")" \
		"node001000 node002000 node003000 node004000 node005000 node006000"
	if awk -v t="$cpu" 'BEGIN { split(t, a, " "); exit !(a[1] + a[2] < 30) }'; then
		pass "6,000 documents in $cpu s CPU (user, system): within 30 s"
	else
		fail "6,000 documents took $cpu s CPU (user, system): beyond 30 s, a quadratic's"
	fi
else
	echo "no python3: the 6,000-document fleet is not made"
fi

usage_error "no operand" compare --k 4
usage_error "a missing file" compare "$TMP/none.json"
usage_error "no document reads" compare "$TMP/none.json" "$TMP/t/host20.json"
usage_error "--k not a number" compare --k x "$D"
finish
