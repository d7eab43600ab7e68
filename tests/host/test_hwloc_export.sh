# SPDX-License-Identifier: GPL-2.0-only
# test_hwloc_export.sh - "pagehop slit --hwloc FILE" on a saved measurement
# (tests/data/slit/matrix-4node-cxl.json: 4 CPU nodes, CPU-less node 4), so
# that it runs on a one-node host: the XML loads in hwloc's own tools
# (hwloc-info --input, lstopo --input --distances, --memattrs) and the
# values they read back equal the measurement in the saved file (ps, MB/s;
# MiB/s for the memory attribute).  The synthetic topology of another
# machine's table has as many packages as its provenance says ("# packages:"
# in a CSV, provenance.packages in JSON), counted back by lstopo; where it
# does not say, none, and the file and the document say so.
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
# Packages: the seed tables (2 x Opteron 6220, 4 nodes; 2 x Xeon E5-2643, 2
# nodes) say their sockets only in prose: no package is made up.
for seed in amd-6220-4node intel-e5-2643-2node; do
	csv=$ROOT/tests/data/shared/$seed.matrix.csv
	"$PAGEHOP" slit --input "$csv" --hwloc "$TMP/$seed.xml" --format json >"$TMP/$seed.json" 2>/dev/null
	expect "$seed, no '# packages:': lstopo counts no package" \
		"$(lstopo-no-graphics --if xml -i "$TMP/$seed.xml" --only package | wc -l)" 0
	case $(jq -r .hwloc.topology "$TMP/$seed.json") in
	*"does not say how many"*) pass "$seed: the document says the package count is not known" ;;
	*) fail "$seed: topology '$(jq -r .hwloc.topology "$TMP/$seed.json")'" ;;
	esac
	grep -q 'name="PagehopTopology" value="synthetic: no package' "$TMP/$seed.xml" &&
		pass "$seed: the XML says it too" || fail "$seed: no PagehopTopology info in the XML"
	# With the socket count as provenance: 2 packages, each with its share of the nodes.
	nodes=$(grep -m1 '^node,' "$csv" | tr ',' '\n' | tail -n +2 | wc -l)
	sed '/^# source:/a # packages: 2' "$csv" >"$TMP/$seed-2p.csv"
	"$PAGEHOP" slit --input "$TMP/$seed-2p.csv" --hwloc "$TMP/$seed-2p.xml" --format json >"$TMP/$seed-2p.json" 2>/dev/null
	expect "$seed, '# packages: 2': lstopo counts 2 packages" \
		"$(lstopo-no-graphics --if xml -i "$TMP/$seed-2p.xml" --only package | wc -l)" 2
	expect "$seed, '# packages: 2': $((nodes / 2)) NUMA node(s) in package 1" \
		"$(hwloc-calc --if xml -i "$TMP/$seed-2p.xml" --number-of numanode package:1)" $((nodes / 2))
done
sed '/^# source:/a # packages: 3' "$ROOT/tests/data/shared/amd-6220-4node.matrix.csv" >"$TMP/3p.csv"
"$PAGEHOP" slit --input "$TMP/3p.csv" --hwloc "$TMP/3p.xml" --format json >"$TMP/3p.json" 2>/dev/null
expect "4 nodes, '# packages: 3': no package (they do not divide)" \
	"$(lstopo-no-graphics --if xml -i "$TMP/3p.xml" --only package | wc -l)" 0
jq '.provenance.packages = 2' "$IN" >"$TMP/2p.json"
"$PAGEHOP" slit --input "$TMP/2p.json" --hwloc "$TMP/2p.xml" --format json >"$TMP/2p-out.json" 2>/dev/null
# 5 nodes (4 CPU nodes and CXL node 4) among 2 packages do not divide either.
expect "JSON provenance.packages 2, 5 nodes: no package" \
	"$(lstopo-no-graphics --if xml -i "$TMP/2p.xml" --only package | wc -l)" 0
jq '.provenance.packages = 5' "$IN" >"$TMP/5p.json"
"$PAGEHOP" slit --input "$TMP/5p.json" --hwloc "$TMP/5p.xml" >/dev/null 2>&1
expect "JSON provenance.packages 5: lstopo counts 5 packages" \
	"$(lstopo-no-graphics --if xml -i "$TMP/5p.xml" --only package | wc -l)" 5
# This machine's provenance counts its packages as hwloc does (a second path).
expect "this host: provenance.packages is hwloc's package count" \
	"$("$PAGEHOP" info --format json 2>/dev/null | jq -r .provenance.packages)" "$(hwloc-calc --number-of package all)"
jq '.provenance.packages = "two"' "$IN" >"$TMP/bad-p.json"
usage_error "provenance.packages not a count" slit --input "$TMP/bad-p.json" --hwloc "$TMP/bad-p.xml"
sed '/^# source:/a # packages: 0' "$ROOT/tests/data/shared/amd-6220-4node.matrix.csv" >"$TMP/0p.csv"
usage_error "'# packages: 0'" slit --input "$TMP/0p.csv" --hwloc "$TMP/0p.xml"
finish
