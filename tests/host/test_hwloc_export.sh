# SPDX-License-Identifier: GPL-2.0-only
# test_hwloc_export.sh - "pagehop slit --hwloc FILE" on a saved measurement
# (tests/data/slit/matrix-4node-cxl.json: 4 CPU nodes, CPU-less node 4), so
# that it runs on a one-node host: the XML loads in hwloc's own tools
# (hwloc-info --input, lstopo --input --distances, --memattrs) and the
# values they read back equal the measurement in the saved file (ps, MB/s;
# MiB/s for the memory attribute).
. "$(dirname "$0")/lib.sh"

ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
IN=$ROOT/tests/data/slit/matrix-4node-cxl.json

"$PAGEHOP" slit --input "$IN" --hwloc "$TMP/t.xml" --format json >"$TMP/o.json" 2>"$TMP/o.err"
expect "--hwloc: exit is the verdict's" "$?" 0
expect "section hwloc names the file" "$(jq -r .hwloc.file "$TMP/o.json")" "$TMP/t.xml"
usage_error "--hwloc into a missing directory" slit --input "$IN" --hwloc "$TMP/no/t.xml"
usage_error "--hwloc onto a FIFO" slit --input "$IN" --hwloc "$(mkfifo "$TMP/fifo" && echo "$TMP/fifo")"

if ! command -v hwloc-info >/dev/null || ! command -v lstopo-no-graphics >/dev/null; then
	[ $_failed -eq 0 ] || finish
	skip_test "hwloc-info or lstopo-no-graphics missing (hwloc-nox, scripts/install-deps.sh check): the XML was not read back"
fi
hwloc-info --input "$TMP/t.xml" >"$TMP/info" 2>&1 && grep -q '5 NUMANode' "$TMP/info" &&
	pass "hwloc-info loads it: 5 NUMA nodes" || fail "hwloc-info: $(cat "$TMP/info")"
lstopo-no-graphics --input "$TMP/t.xml" --distances >"$TMP/d" 2>&1
# matrix NAME: the rows of the named matrix, as one line of values.
matrix() { awk -v n="$1" '/matrix \(name/ { on = index($0, "name " n " ") > 0; next } on && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) printf "%s ", $i }' "$TMP/d" | sed 's/ $//'; }
want=$(jq -r '.latency_ns.values | map(map(. * 1000 | round)) + [[0,0,0,0,0]] | flatten | map(tostring) | join(" ")' "$IN")
expect "lstopo --distances: pagehopLatency equals the measurement in ps (CPU-less node 4's row 0)" \
	"$(matrix pagehopLatency)" "$want"
want=$(jq -r '.bandwidth_read_GBps.values | map(map(. * 1000 | round)) + [[0,0,0,0,0]] | flatten | map(tostring) | join(" ")' "$IN")
expect "lstopo --distances: pagehopBandwidth equals the measurement in MB/s" "$(matrix pagehopBandwidth)" "$want"
grep -q 'name pagehopLatency kind 6' "$TMP/d" && pass "latency kind 6: FROM_USER | MEANS_LATENCY" ||
	fail "latency kind: $(grep 'matrix (name' "$TMP/d")"
grep -q 'name pagehopBandwidth kind 10' "$TMP/d" && pass "bandwidth kind 10: FROM_USER | MEANS_BANDWIDTH" ||
	fail "bandwidth kind: $(grep 'matrix (name' "$TMP/d")"
lstopo-no-graphics --input "$TMP/t.xml" --memattrs >"$TMP/m" 2>&1
# Memory attributes: node 0's figures from node 0's CPUs (the first PU): 90.1 ns -> 90, 20.1 GB/s -> 19169 MiB/s.
expect "memattr Latency of node 0 from its CPUs (ns)" \
	"$(awk '/name .Latency/ { on = 1; next } /^Memory attribute/ { on = 0 } on && /NUMANode L#0 / && /cpuset 0x00000001/ { print $4 }' "$TMP/m")" 90
expect "memattr Bandwidth of node 0 from its CPUs (MiB/s)" \
	"$(awk '/name .Bandwidth/ { on = 1; next } /^Memory attribute/ { on = 0 } on && /NUMANode L#0 / && /cpuset 0x00000001/ { print $4 }' "$TMP/m")" \
	"$(jq -r '.bandwidth_read_GBps.values[0][0] * 1e9 / 1048576 | round' "$IN")"
finish
