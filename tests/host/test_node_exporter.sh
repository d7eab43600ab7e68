# SPDX-License-Identifier: GPL-2.0-only
# test_node_exporter.sh - a real prometheus-node-exporter on 127.0.0.1 (a
# free port) with its textfile collector on a directory of this test;
# pagehop check --prom-file writes there, and node_exporter's /metrics
# shows pagehop's metrics with their labels and the values of the file.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: check measures on verified memory (pagemap)"
NE=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip_test "prometheus-node-exporter is not installed (Debian package prometheus-node-exporter)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir "$TMP/tf"
"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$TMP/tf" >"$TMP/ne.log" 2>&1 &
ne=$!
trap 'kill $ne 2>/dev/null; wait $ne 2>/dev/null; rm -rf "$TMP"' EXIT
fetch() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "http://127.0.0.1:$port/metrics"; }
for _ in $(seq 50); do
	fetch >/dev/null 2>&1 && break
	kill -0 $ne 2>/dev/null || skip_test "node_exporter did not start: $(tail -n 1 "$TMP/ne.log")"
	sleep 0.2
done
fetch >/dev/null 2>&1 || skip_test "node_exporter does not answer on 127.0.0.1:$port: $(tail -n 1 "$TMP/ne.log")"

"$PAGEHOP" baseline --time 0.3 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
# --budget 20: every figure must fit even on a loaded host; test_check holds
# check to its budget.
"$PAGEHOP" check --baseline "$TMP/b.json" --budget 20 --prom-file "$TMP/tf/pagehop.prom" >"$TMP/out" 2>"$TMP/err"
rc=$?
fetch >"$TMP/metrics" || fail "fetching /metrics"
expect "node_exporter: pagehop_check_status is check's exit code" \
	"$(sed -n 's/^pagehop_check_status \([0-9.e+]*\)$/\1/p' "$TMP/metrics")" "$rc"
grep -q '^node_textfile_scrape_error 0$' "$TMP/metrics" && pass "node_exporter read the file without error" ||
	fail "node_exporter: $(grep -i textfile "$TMP/metrics" | head -n 3)"
# Every pagehop series of the file is in /metrics with its labels (node_exporter sorts labels).
n=0
while read -r name value; do
	[ -n "$name" ] || continue
	n=$((n + 1))
	metric=${name%%\{*}
	labels=$(echo "$name" | sed -n 's/^[^{]*{\(.*\)}$/\1/p' | tr ',' '\n' | sort | paste -sd,)
	found=$(grep "^$metric[{ ]" "$TMP/metrics" | while read -r m v; do
		l=$(echo "$m" | sed -n 's/^[^{]*{\(.*\)}$/\1/p' | tr ',' '\n' | sort | paste -sd,)
		[ "$l" = "$labels" ] && echo "$v"
	done)
	[ -n "$found" ] || fail "not in /metrics: $name"
done < <(grep -v '^#' "$TMP/tf/pagehop.prom")
[ $n -gt 5 ] && pass "$n series of the file are in /metrics" || fail "only $n series; check said: $(head -n 1 "$TMP/out")"
node=$(jq -r '.figures[] | select(.figure == "bandwidth_triad") | .node' "$TMP/b.json" | head -n 1)
grep -q "^pagehop_bandwidth_bytes_per_second{figure=\"bandwidth_triad\",hop=\"0\",kernel=\"triad\",mem_node=\"$node\",node=\"$node\"} " "$TMP/metrics" &&
	pass "triad of node $node with its labels" || fail "triad: none in /metrics; check said: $(head -n 1 "$TMP/out")"
grep -q "^pagehop_memory_bytes{node=\"$node\"} " "$TMP/metrics" && pass "memory of node $node" ||
	fail "memory: $(grep pagehop_memory "$TMP/metrics")"
finish
