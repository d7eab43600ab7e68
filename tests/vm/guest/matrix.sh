# SPDX-License-Identifier: GPL-2.0-only
# matrix.sh - "pagehop matrix" then "pagehop slit" end to end in a 4-node
# guest.  TCG has no NUMA latency; under icount (VM_ICOUNT) the measured
# matrix is exactly flat, so against the booted SLIT (10/16/22) the verdict
# must be inconsistent (1 measured level, 3 in the SLIT), exit 1, and
# against a SLIT of 10/11 (flat11) consistent, exit 0.  HMAT figures must
# appear in the comparison either way.
. /tests/tap.sh
plan 17

j=/tmp/m.json
# What the guest still does right after boot runs on the same host thread
# as the measuring vCPU (thread=single); let it finish first.
pagehop chase --size 8M --time 1 >/tmp/warm 2>&1
diag "warm-up chase: $(grep -m1 random /tmp/warm)"
# figures FILE RC: the exit the figures give.  At these short settings a cell
# may end with fewer than 6 samples or its CI missed: no verdict, exit 5,
# "cannot tell", with what the figures alone would read beside it
# (status_of_figures, and the summary after "would read: ").
figures() {
	[ "$2" = 5 ] || { echo "$2"; return; }
	case $(jq -r .verdict.status_of_figures "$1") in
	consistent | "not compared") echo 0 ;;
	inconsistent) echo 1 ;;
	"outside tolerance") echo 3 ;;
	*) echo 5 ;;
	esac
}
# flat FILE: the matrix's latencies all within 20% of each other.
flat() { jq -e '[.latency_ns.values[][]] | max / min < 1.2' "$1" >/dev/null 2>&1; }
# Under icount every vCPU's instructions advance the one guest clock, so a
# guest thread that keeps another vCPU busy for a whole cell (seen once in
# CI: one cell at twice the others) lengthens that cell's time.  The flat
# verdicts below assume a quiet guest; a matrix that is not flat breaks that
# premise, not the analysis, and is measured once more (and shown).
measure() {
	pagehop matrix --size 8M --time 0.3 --ci 5 --page-size 4k --format json --save /tmp/saved.json >$j 2>/tmp/err
}
measure
rc=$?
if [ $rc = 0 ] && [ -n "${VM_ICOUNT:-}" ] && ! flat $j; then
	diag "guest not quiet, measuring again; latency_ns was $(jq -c .latency_ns.values $j)"
	measure
	rc=$?
fi
[ $rc = 0 ] && ok "matrix exits 0" || not_ok "matrix exits 0" "rc $rc: $(cat /tmp/err)"
n=$(jq '[.cells[] | select(.figure == "latency_ns")] | length' $j)
[ "$n" = 16 ] && ok "16 latency cells" || not_ok "16 latency cells" "got $n"
bad=$(jq -r '[.cells[] | select(.verified != true or .page_size != "4K" or (.nodes_found != (.mem_node | tostring)))] | length' $j)
[ "$bad" = 0 ] && ok "every cell verified on its memory node, 4K" || not_ok "cells verified" "$(jq -c '[.cells[] | select(.nodes_found != (.mem_node | tostring))]' $j)"
cpus=$(jq -r '[.cells[] | select(.figure == "latency_ns") | (.cpus == (.cpu_node | tostring))] | all' $j)
[ "$cpus" = true ] && ok "latency rows run on the row's CPU" || not_ok "row CPUs"
rows=$(jq -r '.latency_ns.values | length' $j)
[ "$rows" = 4 ] && ok "latency matrix 4x4" || not_ok "latency matrix" "$rows rows"
want=$(echo "$VM_SLIT" | cut -d' ' -f1-4 | tr ' ' ',')
jq -e ".distances.values[0] == [$want]" $j >/dev/null && ok "SLIT recorded with the matrix" || not_ok "SLIT recorded" "$(jq -c .distances.values $j)"
cmp -s $j /tmp/saved.json && ok "--save wrote the same JSON" || not_ok "--save" "$(diff $j /tmp/saved.json | head -5)"
# Each memory node set up once for the 4 rows that measure it: 4 latency
# buffers with their 4 chains and 4 bandwidth buffers, not 16 of each.
# The bandwidth arrays written once per kernel (read, triad) per memory
# node, 8, then streamed from every row: not 32, once per figure per cell.
built=$(jq -r '.matrix | "\(.latency_buffers_built) \(.chains_built) \(.bandwidth_buffers_built) \(.bandwidth_arrays_written)"' $j)
[ "$built" = "4 4 4 8" ] && ok "each memory node set up once: 4 latency buffers, 4 chains, 4 bandwidth buffers, 8 array writes" ||
	not_ok "memory set up once per node" "latency buffers, chains, bandwidth buffers, array writes: $built"
# The time block adds up: the phases within the total.
jq -e '.time | ([.alloc_s, .touch_s, .verify_s, .chain_s, .arrays_s, .warmup_s, .measure_s, .check_s] | add) <= .total_s + 0.001
	and .measure_s > 0 and .chain_s > 0' $j >/dev/null &&
	ok "time: phases within the total ($(jq -c .time $j))" || not_ok "time block" "$(jq -c .time $j)"

diag "latency_ns: $(jq -c .latency_ns.values $j)"
diag "read GB/s: $(jq -c .bandwidth_read_GBps.values $j)"

# Offline analysis of the saved matrix against the SLIT recorded with it.
pagehop slit --input $j --format json >/tmp/s.json 2>/tmp/err
rc=$?
v=$(jq -r .verdict.summary /tmp/s.json)
[ $rc = 5 ] && diag "cannot tell: $(jq -r '.lacking_evidence | length' /tmp/s.json) cells without the evidence: $v"
rc=$(figures /tmp/s.json $rc)
v=${v##*would read: }
if [ -z "${VM_ICOUNT:-}" ]; then
	# Plain TCG: the timings follow the host's load, not the nodes, so no
	# verdict is predictable; the analysis must still run to a verdict.
	case $rc in
	0|1|3|5) ok "slit verdict reached: $v (exit $rc; timings under plain TCG are host noise, the flat verdicts are checked under icount)" ;;
	*) not_ok "slit verdict" "rc $rc: $(cat /tmp/err)" ;;
	esac
elif [ "$VM_CONFIG" = flat11_icount ]; then
	[ $rc = 0 ] && ok "flat measurement vs SLIT 10/11: consistent, exit 0 ($v)" || not_ok "flat11 verdict" "rc $rc: $v $(cat /tmp/err)"
else
	[ $rc = 1 ] && [ "$v" = "inconsistent: measurement shows 1 level, SLIT has 3" ] &&
		ok "flat measurement vs SLIT 10/16/22: $v, exit 1" || not_ok "numa4 verdict" "rc $rc: $v $(cat /tmp/err)"
fi
h=$(jq -r '[.hmat[]? | select(.hmat != null and .measured != null)] | length' /tmp/s.json)
[ "$h" -ge 1 ] 2>/dev/null && ok "HMAT figures in the comparison ($h rows)" || not_ok "HMAT in the comparison" "$(jq -c 'keys' /tmp/s.json)"

# Online: slit measures by itself, with the same verdict.  The machine's
# SLIT goes in on standard input, read once before measuring; and the
# report must be the one slit --input makes of the measurement it saved:
# the analysis takes the measurement straight from the engine, with the
# digits the saved file records.
{
	echo "node distances:"
	echo "node   0   1   2   3"
	for n in 0 1 2 3; do echo "  $n:   $(cat /sys/devices/system/node/node$n/distance)"; done
} >/tmp/slit.txt
online() {
	pagehop slit --size 8M --time 0.2 --ci 5 --page-size 4k --save /tmp/o.json --slit - --format json \
		</tmp/slit.txt >/tmp/o.out.json 2>/tmp/err
}
online
rc2=$?
rc2f=$(figures /tmp/o.out.json $rc2)
if [ -n "${VM_ICOUNT:-}" ] && [ $rc2f != $rc ] && ! flat /tmp/o.json; then
	diag "guest not quiet, measuring again; latency_ns was $(jq -c .latency_ns.values /tmp/o.json)"
	online
	rc2=$?
	rc2f=$(figures /tmp/o.out.json $rc2)
fi
if [ -n "${VM_ICOUNT:-}" ]; then
	[ $rc2f = $rc ] && ok "slit online: same figures' verdict (exit $rc2)" || not_ok "slit online" "rc $rc2: $(cat /tmp/err)"
else
	case $rc2 in 0|1|3|5) ok "slit online: a verdict or cannot tell (exit $rc2)" ;; *) not_ok "slit online" "rc $rc2: $(cat /tmp/err)" ;; esac
fi
# --hmat-table: the HMAT the online run read (this machine's), so that the
# memory tiers of both reports come from the same table.
hm=; [ -r /sys/firmware/acpi/tables/HMAT ] && hm="--hmat-table /sys/firmware/acpi/tables/HMAT"
pagehop slit --input /tmp/o.json --slit - $hm --format json </tmp/slit.txt >/tmp/o.in.json 2>/tmp/err
rc3=$?
# The time block, like the provenance, is the run's own: one measured, one
# read a file.  The machine's own tables (firmware_slit, hmat_table*) are
# read only when measuring here: a saved file may come from another machine.
# Section origin says how each was found to be this machine's (by this run,
# by the saved file's host), the same machine either way.
own='del(.provenance, .firmware_slit, .time, .origin) | with_entries(select(.key | startswith("hmat_table") | not))'
jq -S "$own" /tmp/o.out.json >/tmp/o.out.s 2>&1
jq -S "$own" /tmp/o.in.json >/tmp/o.in.s 2>&1
if [ $rc3 = $rc2 ] && [ -s /tmp/o.in.s ] && cmp -s /tmp/o.out.s /tmp/o.in.s; then
	ok "slit online: the report of slit --input on its --save file"
else
	not_ok "slit online = slit --input of its --save" "exit $rc2 and $rc3: $(cat /tmp/err) $(diff /tmp/o.out.s /tmp/o.in.s | head -8)"
fi

# --groups: two sockets of two nodes each (CPU n is on node n).  Bandwidth
# threads run on both CPUs of the row's group and every page of a cell lies
# on the column group's nodes, read back per cell.
pagehop matrix --groups 0-1,2-3 --size 8M --time 0.1 --ci 50 --page-size 4k --figures latency,read \
	--format json >/tmp/g.json 2>/tmp/err
rc=$?
got=$(jq -r '[(.latency_ns.values | length), (.latency_ns.values[0] | length)] | map(tostring) | join("x")' /tmp/g.json 2>/dev/null)
[ $rc = 0 ] && [ "$got" = 2x2 ] && ok "--groups 0-1,2-3: a 2x2 matrix" || not_ok "--groups matrix" "rc $rc, $got: $(cat /tmp/err)"
bad=$(jq -r '.cells[] | select(
	([.nodes_found | tostring | split(",")[] | tonumber] - (if .mem_node == 0 then [0, 1] else [2, 3] end)) != [] or
	.verified != true or
	(.figure != "latency_ns" and (.cpus != (if .cpu_node == 0 then "0,1" else "2,3" end) or .threads != 2)))
	| "\(.cpu_node)->\(.mem_node) \(.figure): nodes \(.nodes_found) cpus \(.cpus) threads \(.threads)"' /tmp/g.json 2>&1)
n=$(jq '.cells | length' /tmp/g.json 2>/dev/null)
[ -z "$bad" ] && [ "$n" = 8 ] && ok "--groups: 8 cells, pages on the column's nodes, read on the row's two CPUs" ||
	not_ok "--groups cells" "$n cells; $bad"

# A proposed SLIT as ACPI source, compiled later by the host (no iasl here).
pagehop slit --input $j --emit-acpi /tmp/slit.asl >/dev/null 2>/tmp/err
grep -q 'Signature *: "SLIT"' /tmp/slit.asl && ok "--emit-acpi wrote a SLIT source" || not_ok "--emit-acpi" "$(cat /tmp/err)"
grep -q 'Oem ID *: "BOCHS "' /tmp/slit.asl && ok "OEM ID from the guest's SLIT" || not_ok "OEM ID" "$(grep -i oem /tmp/slit.asl)"
echo "### file slit.asl"
cat /tmp/slit.asl
echo "### end file"
