# SPDX-License-Identifier: GPL-2.0-only
# test_matrix_groups.sh - "pagehop matrix --groups 'cpus=...;mem=...'": a
# group's explicit CPU set is where its row runs (latency on the first CPU
# given, bandwidth a thread on each), checked against the CPUs each cell
# recorded and their nodes by sysfs; and the bad forms of the option.
. "$(dirname "$0")/lib.sh"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip_test "SKIP: needs 2 CPUs, this host has $ncpu"
node_of() { basename /sys/devices/system/cpu/cpu$1/node* | tr -d node; }
n1=$(node_of 1)
# CPU 1 and the other CPUs of its node, from sysfs.
mates=$(cat /sys/devices/system/node/node$n1/cpulist)

"$PAGEHOP" matrix --groups "cpus=1;mem=$n1" --size 8M --time 0.1 --ci 50 --page-size 4k \
	--format json >"$TMP/m.json" 2>"$TMP/err" || fail "matrix --groups cpus=1: $(cat "$TMP/err")"
expect "three cells" "$(jq '.cells | length' "$TMP/m.json")" 3
expect "every cell on CPU 1, one thread" \
	"$(jq -c '[.cells[] | "\(.cpus)/\(.threads)"] | unique' "$TMP/m.json")" '["1/1"]'
expect "every cell's memory on node $n1" "$(jq -c '[.cells[] | .nodes_found] | unique' "$TMP/m.json")" "[\"$n1\"]"
expect "groups table" "$(jq -c '.groups[0] | [.nodes, .cpus, .has_cpus]' "$TMP/m.json")" "[\"$n1\",\"1\",true]"

# Two CPUs: latency on the first, bandwidth a thread on each.
pair=$(echo "$mates" | tr , '\n' | head -c 100 | paste -sd,)
"$PAGEHOP" matrix --groups "cpus=0,1;mem=$(node_of 0)" --size 8M --time 0.1 --ci 50 --page-size 4k \
	--format json >"$TMP/m2.json" 2>"$TMP/err"
if [ "$(node_of 0)" = "$n1" ]; then
	expect "latency on CPU 0" "$(jq -r '.cells[] | select(.figure == "latency_ns") | .cpus' "$TMP/m2.json")" 0
	expect "bandwidth on CPUs 0,1" \
		"$(jq -c '[.cells[] | select(.figure != "latency_ns") | "\(.cpus)/\(.threads)"] | unique' "$TMP/m2.json")" '["0,1/2"]'
	"$PAGEHOP" matrix --groups "cpus=0,1;mem=$n1" --threads 1 --figures read --size 8M --time 0.1 --ci 50 \
		--page-size 4k --format json >"$TMP/m3.json" 2>"$TMP/err"
	expect "--threads 1: the first CPU given" "$(jq -r '.cells[0] | "\(.cpus)/\(.threads)"' "$TMP/m3.json")" "0/1"
else
	echo "CPUs 0 and 1 on different nodes: the pair checks need them together (mates of 1: $pair)"
fi

usage_error "no mem=" matrix --groups 'cpus=0'
usage_error "mem= before cpus=" matrix --groups 'mem=0;cpus=0'
usage_error "empty CPU list" matrix --groups 'cpus=;mem=0'
usage_error "CPU that does not exist" matrix --groups "cpus=$((ncpu + 64));mem=0"
usage_error "node that does not exist" matrix --groups 'cpus=0;mem=63'
usage_error "node groups and CPU groups mixed" matrix --groups 0 --groups 'cpus=0;mem=0'
usage_error "CPU groups and node groups mixed" matrix --groups 'cpus=0;mem=0' --groups 0
finish
