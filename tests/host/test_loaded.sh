# SPDX-License-Identifier: GPL-2.0-only
# test_loaded.sh - "pagehop loaded" on this host: the curve's shape (an
# idle point, then the delays longest first), each point's achieved
# bandwidth and latency CI present and consistent, every buffer read back
# on its node, each mix runs, and bad input is refused.  Whether latency
# rises under load, and bandwidth as the delay falls, are timing claims:
# bench/contention.sh.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip_test "loaded needs two CPUs; this host has $(nproc)"

"$PAGEHOP" loaded --chaser 0 --loaders 1 --size 32M --loader-size 16M --delays 0,1000 --time 0.3 \
	--format json >"$TMP/l.json" 2>"$TMP/err" || fail "loaded: $(cat "$TMP/err")"
expect "points: idle, then 1000, then 0" \
	"$(jq -r '[.loaded[] | "\(.mix):\(.delay)"] | join(" ")' "$TMP/l.json")" "idle:null read:1000 read:0"
expect "idle point: no loader, no bandwidth" \
	"$(jq -r '.loaded[0] | "\(.loaders) \(.bw_GBps)"' "$TMP/l.json")" "0 0"
jq -c '.loaded[1:][]' "$TMP/l.json" | while read -r row; do
	ok=$(echo "$row" | jq -r '(.loaders == 1) and (.bw_GBps > 0) and (.loaders_s > 0) and
		((.bw_per_loader_GBps - .bw_GBps) | fabs < 0.001)')
	[ "$ok" = true ] && echo "ok: delay $(echo "$row" | jq -r '.delay'): $(echo "$row" | jq -r '.bw_GBps') GB/s achieved" ||
		echo "FAIL: point $row"
done >"$TMP/rows"
cat "$TMP/rows"
grep -q FAIL "$TMP/rows" && fail "a loaded point lacks its bandwidth"
jq -c '.loaded[]' "$TMP/l.json" | while read -r row; do
	ok=$(echo "$row" | jq -r '(.lat_ns > 0) and (.samples >= 1) and (.chaser_cpu == 0) and
		(.loader_cpus == "1") and (.verified == true)')
	[ "$ok" = true ] || echo "FAIL: $row"
done >"$TMP/lat"
[ -s "$TMP/lat" ] && fail "latency columns: $(cat "$TMP/lat")" || pass "every point has its latency, chaser 0, loader 1"
node0=$(basename /sys/devices/system/cpu/cpu0/node* | tr -dc 0-9)
node1=$(basename /sys/devices/system/cpu/cpu1/node* | tr -dc 0-9)
expect "chaser's memory read back" "$(jq -r '.buffers[0] | "\(.cpu) \(.node_asked) \(.verified)"' "$TMP/l.json")" \
	"0 $node0 true"
expect "loader's buffer read back on the loader's node" \
	"$(jq -r '.loader0_memory | "\(.node_asked) \(.node_found) \(.verified) \(.size_KiB)"' "$TMP/l.json")" \
	"$node1 $node1 true 16384"

# Every mix runs one point; the loaders' memory on a node named apart.
"$PAGEHOP" loaded --chaser 1 --loaders 0 --loader-membind "$node0" --membind "$node1" --size 16M \
	--loader-size 8M --mix read,3:1,2:1,1:1,nt --delays 0 --time 0.2 --format json >"$TMP/m.json" \
	2>"$TMP/err" || fail "mixes: $(cat "$TMP/err")"
expect "a point per mix after idle" "$(jq -r '[.loaded[].mix] | join(" ")' "$TMP/m.json")" "idle read 3:1 2:1 1:1 nt"
expect "every mix moved bytes" "$(jq -r '[.loaded[1:][] | .bw_GBps > 0] | all' "$TMP/m.json")" true

usage_error "chaser among the loaders" loaded --chaser 0 --loaders 0,1
if command -v taskset >/dev/null; then
	taskset -c 0 "$PAGEHOP" loaded --chaser 0 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		pass "zero loaders: $(cat "$TMP/err")" || fail "zero loaders: exit $rc: $(cat "$TMP/err")"
fi
usage_error "two chasers" loaded --chaser 0,1 --loaders 1
usage_error "unknown mix" loaded --mix 4:1
usage_error "bad delay" loaded --delays 10,x
usage_error "--threads refused" loaded --threads 2
finish
