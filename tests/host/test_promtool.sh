# SPDX-License-Identifier: GPL-2.0-only
# test_promtool.sh - Prometheus' own tools on pagehop's metrics and rules:
# "promtool check metrics" finds nothing to say about the real output of
# "pagehop check --prom-file" (base units, help and type on every family);
# each latency and bandwidth sample is its figure of the same run's JSON
# document, converted to seconds or bytes per second, with the page size
# the document names; the status is the exit code.  The shipped alerting
# rules pass "promtool check rules", and "promtool test rules" on
# tests/data/prom/pagehop.rules.test.yml shows CRITICAL alerting at once
# and WARNING and UNKNOWN after their two hours; the same tests fail on
# rules that delay CRITICAL or shorten WARNING's delay, so they can tell.
. "$(dirname "$0")/lib.sh"
root=$PAGEHOP_ROOT

command -v promtool >/dev/null || skip_test "promtool is not installed (Debian package prometheus: scripts/install-deps.sh check)"
command -v jq >/dev/null || skip_test "needs jq"

# ---- the metrics of a real check ----
# Without root check measures nothing (UNKNOWN): the metrics must be clean
# either way; with root they hold the timed figures.
"$PAGEHOP" check --budget 12 --format json --prom-file "$TMP/p.prom" >"$TMP/out.json" 2>"$TMP/err"
rc=$?
[ -s "$TMP/p.prom" ] || { fail "no --prom-file written (exit $rc): $(tail -n 2 "$TMP/err")"; finish; }
expect "pagehop_check_status is the exit code" "$(sed -n 's/^pagehop_check_status \([0-9]*\)$/\1/p' "$TMP/p.prom")" "$rc"
lint=$(promtool check metrics <"$TMP/p.prom" 2>&1)
lrc=$?
[ $lrc -eq 0 ] && [ -z "$lint" ] && pass "promtool check metrics: clean ($(grep -vc '^#' "$TMP/p.prom") samples)" ||
	fail "promtool check metrics (exit $lrc): $lint"
# Every figure with a value in the document has its sample: seconds = ns /
# 10^9, bytes/s = GB/s x 10^9, within the rounding of the document's value.
n=0
while IFS=$'\t' read -r fig node mem value ps; do
	case $fig in
	latency_*) metric=pagehop_latency_seconds scale=1e9 ;;
	bandwidth_*) metric=pagehop_bandwidth_bytes_per_second scale=1e-9 ;;
	*) continue ;;
	esac
	line=$(grep "^$metric{node=\"$node\",mem_node=\"$mem\",.*figure=\"$fig\"} " "$TMP/p.prom")
	[ -n "$line" ] || { fail "$fig of node $node: no $metric sample"; continue; }
	n=$((n + 1))
	got=$(awk -v v="${line##* }" -v s="$scale" 'BEGIN { printf "%.6f", v * s }')
	awk -v a="$got" -v b="$value" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 + 1e-5 * b) }' &&
		pass "$fig of node $node: ${line##* } is the document's $value" || fail "$fig: prom ${line##* } ($got), document $value"
	if [ "$metric" = pagehop_latency_seconds ]; then
		case $line in
		*"page_size=\"$ps\""*) pass "$fig: page_size $ps, as the document names it" ;;
		*) fail "$fig: document page_size $ps, prom: $line" ;;
		esac
	fi
done < <(jq -r '.figures[] | select(.value != null) | [.figure, .node, .mem_node, .value, (.page_size // "-")] | @tsv' "$TMP/out.json")
if [ "$(id -u)" -eq 0 ]; then
	[ $n -gt 0 ] && pass "$n timed figures in both" || fail "no timed figure in the document: $(jq -r .verdict.line "$TMP/out.json")"
fi

# ---- the shipped rules ----
out=$(promtool check rules "$root/contrib/prometheus/pagehop.rules.yml" 2>&1) &&
	pass "promtool check rules: $(echo "$out" | grep -o 'SUCCESS.*')" || fail "promtool check rules: $out"
out=$(promtool test rules "$root/tests/data/prom/pagehop.rules.test.yml" 2>&1) &&
	pass "promtool test rules: CRITICAL at once, WARNING and UNKNOWN after 2h, stale after 3h" ||
	fail "promtool test rules: $(echo "$out" | head -n 30)"
# The tests can tell: rules that delay CRITICAL, or alert on WARNING
# sooner, fail them.  (rule_files is relative to the test file: the copies
# keep the tree's layout.)
mkdir -p "$TMP/m/tests/data/prom" "$TMP/m/contrib/prometheus"
cp "$root/tests/data/prom/pagehop.rules.test.yml" "$TMP/m/tests/data/prom/"
for mut in 's/for: 0m/for: 5m/|CRITICAL delayed 5m' 's/for: 2h/for: 1h/|WARNING after 1h'; do
	edit=${mut%%|*} what=${mut#*|}
	sed "$edit" "$root/contrib/prometheus/pagehop.rules.yml" >"$TMP/m/contrib/prometheus/pagehop.rules.yml" &&
		! cmp -s "$root/contrib/prometheus/pagehop.rules.yml" "$TMP/m/contrib/prometheus/pagehop.rules.yml" ||
		{ fail "$what: '$edit' does not change the rules"; continue; }
	promtool test rules "$TMP/m/tests/data/prom/pagehop.rules.test.yml" >"$TMP/mut" 2>&1 &&
		fail "promtool test rules passes rules with $what" ||
		pass "promtool test rules fails rules with $what: $(grep -m1 'alertname' "$TMP/mut" | sed 's/^ *//; s/, *$//')"
done
finish
