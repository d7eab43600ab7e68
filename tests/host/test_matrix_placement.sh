# SPDX-License-Identifier: GPL-2.0-only
# test_matrix_placement.sh - "pagehop matrix --threads N --placement P":
# the CPUs each cell's threads found themselves on (cpus_found, read with
# sched_getcpu) are checked through sysfs, not hwloc or libnuma that
# pagehop uses: on the row's node, on distinct cores (topology/core_id and
# physical_package_id) for exclusive, as many as asked; and the refusals.
. "$(dirname "$0")/lib.sh"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip_test "SKIP: needs 2 CPUs, this host has $ncpu"
topo() { cat /sys/devices/system/cpu/cpu$1/topology/$2; }
node_of() { basename /sys/devices/system/cpu/cpu$1/node* | tr -d node; }
core_of() { echo "$(topo $1 physical_package_id):$(topo $1 core_id)"; }
cores_in() { for c in $(echo "$1" | tr , ' '); do core_of $c; done | sort -u | wc -l; }
nodes_in() { for c in $(echo "$1" | tr , ' '); do node_of $c; done | sort -u | paste -sd,; }
n0=$(node_of 0)
# CPUs and cores of node n0 by sysfs.
node_cpus=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do c=${c##*cpu}; [ "$(node_of $c)" = "$n0" ] && echo $c; done | sort -n | paste -sd,)
node_ncpu=$(echo "$node_cpus" | tr , '\n' | wc -l)
node_ncores=$(cores_in "$node_cpus")
[ "$node_ncores" -ge 2 ] || skip_test "SKIP: node $n0 has $node_ncores core; exclusive needs 2"

run() {
	local name=$1
	shift
	"$PAGEHOP" matrix --cpunodebind "$n0" --membind "$n0" --size 8M --time 0.1 --ci 50 --page-size 4k \
		--format json "$@" >"$TMP/$name.json" 2>"$TMP/err" || { fail "matrix $*: $(cat "$TMP/err")"; return 1; }
}

# Exclusive, 2 threads: both bandwidth cells on 2 CPUs of 2 distinct cores
# of node n0, the CPUs read back equal to those asked.
if run ex --threads 2 --placement exclusive --figures latency,read; then
	found=$(jq -r '.cells[] | select(.figure != "latency_ns") | .cpus_found' "$TMP/ex.json")
	expect "exclusive: 2 threads" "$(jq -r '.cells[] | select(.figure != "latency_ns") | .threads' "$TMP/ex.json")" 2
	expect "exclusive: 2 CPUs read back" "$(echo "$found" | tr , '\n' | sort -u | wc -l)" 2
	expect "exclusive: on 2 cores by sysfs ($found)" "$(cores_in "$found")" 2
	expect "exclusive: on node $n0 by sysfs" "$(nodes_in "$found")" "$n0"
	expect "exclusive: read back = asked" \
		"$(jq -r '.cells[] | select(.figure != "latency_ns") | .cpus_found == .cpus' "$TMP/ex.json")" true
	expect "exclusive: no shared core" \
		"$(jq -r '.cells[] | select(.figure != "latency_ns") | .shared_cores_found' "$TMP/ex.json")" 0
	lat=$(jq -r '.cells[] | select(.figure == "latency_ns") | .cpus_found' "$TMP/ex.json")
	expect "latency on one of the placed CPUs ($lat)" "$(echo ",$found," | grep -c ",$lat,")" 1
	expect "section names the placement" "$(jq -r '.matrix.placement' "$TMP/ex.json")" exclusive
fi

# Without --threads: as many as the placement takes, one per core here.
if run all --placement exclusive --figures read; then
	found=$(jq -r '.cells[0].cpus_found' "$TMP/all.json")
	expect "exclusive without --threads: one per core of node $n0 ($node_ncores)" \
		"$(jq -r '.cells[0].threads' "$TMP/all.json")/$(cores_in "$found")" "$node_ncores/$node_ncores"
fi

# Scatter, 1 thread: one CPU of the row's node.
if run sc --threads 1 --placement scatter --figures read; then
	found=$(jq -r '.cells[0].cpus_found' "$TMP/sc.json")
	expect "scatter 1: one CPU on node $n0 ($found)" "$(echo "$found" | tr , '\n' | wc -l)/$(nodes_in "$found")" "1/$n0"
fi

# Table and CSV carry the read-back CPUs too.
"$PAGEHOP" matrix --cpunodebind "$n0" --membind "$n0" --size 8M --time 0.1 --ci 50 --page-size 4k \
	--figures read --threads 2 --placement compact --format csv >"$TMP/c.csv" 2>"$TMP/err"
# The cells' header, then the one cell: the column cpus_found by name.
col=$(awk -F, '/^cpu_node,/ { for (i = 1; i <= NF; i++) if ($i == "cpus_found") print i }' "$TMP/c.csv")
expect "CSV cells have a cpus_found column" "${col:+yes}" yes
# Compact by sysfs: the node's CPUs in order, a core's second CPU after every core's first.
first2=$(seen=; for c in $(echo "$node_cpus" | tr , ' '); do
	k=$(core_of $c); case " $seen " in *" $k "*) ;; *) seen="$seen $k"; echo $c ;; esac
done | head -2 | paste -sd,)
expect "CSV cpus_found: the 2 CPUs compact takes ($first2)" \
	"$(grep -A1 '^cpu_node,' "$TMP/c.csv" | tail -1 | grep -o '"[0-9,]*"' | sed -n 2p | tr -d '"')" \
	"$first2"

# Each refusal: exit 2, one line, nothing on stdout, and the line says why.
refuse() {
	local desc=$1 why=$2
	shift 2
	usage_error "$desc" "$@"
	expect "$desc: the line says '$why'" "$(grep -c -- "$why" "$TMP/err")" 1
}
refuse "more threads than the node's CPUs" "$node_ncpu CPUs" \
	matrix --cpunodebind "$n0" --threads $((node_ncpu + 1)) --placement compact
refuse "more threads than the node's cores, exclusive" "$node_ncores cores" \
	matrix --cpunodebind "$n0" --threads $((node_ncores + 1)) --placement exclusive
refuse "unknown placement" "unknown placement 'spread'" matrix --threads 1 --placement spread
refuse "--placement with CPU groups" "cpus=" matrix --groups "cpus=0;mem=$n0" --threads 1 --placement compact
if [ "$(topo 0 thread_siblings_list)" = 0 ]; then
	"$PAGEHOP" matrix --placement shared --threads 2 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect "shared without SMT: exit 4, one line, no stdout ($(cat "$TMP/err"))" \
		"$rc/$(wc -l <"$TMP/err")/$(wc -c <"$TMP/out")" "4/1/0"
fi
finish
