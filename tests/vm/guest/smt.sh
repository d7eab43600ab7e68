# SPDX-License-Identifier: GPL-2.0-only
# smt.sh - placements, the go-around, the socket table (matrix --groups
# with CPU sets, and by --placement) and the sweep per hop level on a 4-node guest with SMT (numa4smt:
# 2 sockets of 2 nodes, each node one core of 2 threads).  Every CPU set
# is checked through sysfs (topology/core_id, physical_package_id,
# thread_siblings_list, the node links), not hwloc or libnuma that pagehop
# uses; the go-around's blocks, which pagehop reads back with move_pages
# or its module, are checked against the sysfs node of their owner's CPU.
. /tests/tap.sh
plan 28

topo() { cat /sys/devices/system/cpu/cpu$1/topology/$2; }
node_of() { for d in /sys/devices/system/cpu/cpu$1/node*; do echo "${d##*node}"; done; }
core_of() { echo "$(topo $1 physical_package_id):$(topo $1 die_id 2>/dev/null):$(topo $1 core_id)"; }

# The machine as booted: 8 CPUs, siblings in pairs, 2 packages.
[ "$(nproc)" = 8 ] && ok "8 CPUs" || not_ok "8 CPUs" "nproc $(nproc)"
sib=$(for c in 0 1 2 3 4 5 6 7; do topo $c thread_siblings_list; done | sort -u | paste -sd' ')
[ "$sib" = "0-1 2-3 4-5 6-7" ] && ok "SMT siblings by sysfs: $sib" || not_ok "SMT siblings" "$sib"
pk=$(for c in 0 1 2 3 4 5 6 7; do topo $c physical_package_id; done | paste -sd' ')
[ "$pk" = "0 0 0 0 1 1 1 1" ] && ok "2 packages of 4 CPUs" || not_ok "packages" "$pk"
nodes=$(for c in 0 1 2 3 4 5 6 7; do node_of $c; done | paste -sd' ')
[ "$nodes" = "0 0 1 1 2 2 3 3" ] && ok "a core per node" || not_ok "CPU nodes" "$nodes"

# scale: shared puts two threads on one core's siblings, exclusive on two cores.
scale() {
	pagehop scale --placement $1 --threads-list 2 --size-per-thread 2M --time 0.1 --ci 50 \
		--format json >/tmp/$1.json 2>/tmp/err || { not_ok "scale --placement $1" "$(cat /tmp/err)"; return 1; }
	ok "scale --placement $1"
}
ncores() { for c in $(echo "$1" | tr , ' '); do core_of $c; done | sort -u | wc -l; }
if scale shared; then
	cpus=$(jq -r '.scale[0].cpus' /tmp/shared.json)
	[ "$(ncores "$cpus")" = 1 ] && [ "$(jq '.scale[0].shared_cores' /tmp/shared.json)" = 1 ] &&
		ok "shared: CPUs $cpus are one core's siblings" ||
		not_ok "shared: one core" "cpus $cpus: $(jq -c '.scale[0]' /tmp/shared.json)"
else skip "shared: one core" "scale failed"; fi
if scale exclusive; then
	cpus=$(jq -r '.scale[0].cpus' /tmp/exclusive.json)
	[ "$(ncores "$cpus")" = 2 ] && [ "$(jq '.scale[0].shared_cores' /tmp/exclusive.json)" = 0 ] &&
		ok "exclusive: CPUs $cpus on two cores" ||
		not_ok "exclusive: two cores" "cpus $cpus: $(jq -c '.scale[0]' /tmp/exclusive.json)"
else skip "exclusive: two cores" "scale failed"; fi

# compact fills node 0 (its one core's two siblings) first; scatter deals
# the two threads to nodes 0 and 1.  Nodes by sysfs.
nodes_of() { for c in $(echo "$1" | tr , ' '); do node_of $c; done | paste -sd,; }
if scale compact; then
	cpus=$(jq -r '.scale[0].cpus' /tmp/compact.json)
	[ "$(nodes_of "$cpus")" = "0,0" ] && ok "compact: CPUs $cpus both on node 0" ||
		not_ok "compact: one node" "cpus $cpus on nodes $(nodes_of "$cpus")"
else skip "compact: one node" "scale failed"; fi
if scale scatter; then
	cpus=$(jq -r '.scale[0].cpus' /tmp/scatter.json)
	[ "$(nodes_of "$cpus")" = "0,1" ] && ok "scatter: CPUs $cpus on nodes 0 and 1" ||
		not_ok "scatter: two nodes" "cpus $cpus on nodes $(nodes_of "$cpus")"
else skip "scatter: two nodes" "scale failed"; fi

# goaround, one thread per core (= per node): turn 0 local, every other
# turn all remote; mean hops by the SLIT's levels (16: 1, 22: 2) are
# 0, 1.5, 2, 1.5 when the threads run on nodes 0, 1, 2, 3 in order.
j=/tmp/g.json
if pagehop goaround --placement exclusive --size-per-thread 2M --time 0.1 --ci 50 --format json >$j 2>/tmp/err; then
	ok "goaround exits 0"
else
	not_ok "goaround exits 0" "$(cat /tmp/err)"
fi
[ "$(jq -c '[.goaround[].turn]' $j)" = "[0,1,2,3]" ] && ok "4 turns" || not_ok "4 turns" "$(jq -c '[.goaround[].turn]' $j)"
[ "$(jq -c '[.goaround[].remote_threads]' $j)" = "[0,4,4,4]" ] && ok "remote threads 0, 4, 4, 4" ||
	not_ok "remote threads" "$(jq -c '[.goaround[].remote_threads]' $j)"
order=$(jq -r '[.threads[] | select(.turn == 0) | .cpu_node] | join(",")' $j)
if [ "$order" = "0,1,2,3" ]; then
	[ "$(jq -c '[.goaround[].mean_hops]' $j)" = "[0,1.5,2,1.5]" ] && ok "mean hops 0, 1.5, 2, 1.5" ||
		not_ok "mean hops" "$(jq -c '[.goaround[].mean_hops]' $j)"
else
	skip "mean hops 0, 1.5, 2, 1.5" "threads on nodes $order"
fi
# Every thread's CPU node by sysfs, every block on its owner's CPU node.
bad=0
for row in $(jq -c '.threads[]' $j); do
	cpu=$(echo "$row" | jq .cpu)
	[ "$(echo "$row" | jq .cpu_node)" = "$(node_of $cpu)" ] || bad=$((bad + 1))
done
[ $bad = 0 ] && ok "threads' CPU nodes by sysfs" || not_ok "CPU nodes" "$bad rows differ: $(jq -c .threads $j)"
jq -e '. as $d | ([$d.threads[] | select(.turn == 0) | {(.thread | tostring): .cpu_node}] | add) as $home |
	[$d.threads[] | .mem_node == $home[.block_of | tostring]] | all' $j >/dev/null &&
	ok "each block read back on its owner's node" || not_ok "blocks" "$(jq -c .threads $j)"
jq -e '[.goaround[] | .verified and .valid] | all' $j >/dev/null && ok "verified and valid" ||
	not_ok "verified" "$(jq -c .goaround $j)"
# Impossible: more threads than cores for exclusive.
pagehop goaround --placement exclusive --threads 5 --size-per-thread 1M >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 2 ] && [ ! -s /tmp/out ] && [ "$(wc -l </tmp/err)" = 1 ] && ok "exclusive, 5 threads on 4 cores: exit 2" ||
	not_ok "exclusive, 5 threads: exit 2" "rc $rc: $(cat /tmp/err)"

# The socket table: a group per socket, one thread per core (every other
# CPU), memory on the socket's two nodes.
j=/tmp/st.json
if pagehop matrix --groups 'cpus=0,2;mem=0-1' --groups 'cpus=4,6;mem=2-3' --figures read \
	--size 4M --time 0.1 --ci 50 --page-size 4k --format json >$j 2>/tmp/err; then
	ok "socket table exits 0"
else
	not_ok "socket table exits 0" "$(cat /tmp/err)"
fi
[ "$(jq -c '.bandwidth_read_GBps.values | [length, (.[0] | length)]' $j)" = "[2,2]" ] && ok "2 x 2 table" ||
	not_ok "2 x 2 table" "$(jq -c .bandwidth_read_GBps $j)"
cells=$(jq -c '[.cells[] | "\(.cpu_node):\(.cpus)/\(.threads)"] | sort' $j)
[ "$cells" = '["0:0,2/2","0:0,2/2","1:4,6/2","1:4,6/2"]' ] && ok "rows ran on their CPU sets, a thread each" ||
	not_ok "row CPUs" "$cells"
pagehop matrix --groups 'cpus=4;mem=0-1' --figures read --size 1M >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 2 ] && [ ! -s /tmp/out ] && [ "$(wc -l </tmp/err)" = 1 ] && ok "a CPU off its group's nodes: exit 2" ||
	not_ok "CPU off its group's nodes" "rc $rc: $(cat /tmp/err)"

# The socket table by placement: a group per socket, --placement exclusive
# takes one CPU per core of the group's two nodes.  Each cell's CPUs as its
# threads read them back, checked by sysfs: 2 cores, on the group's nodes.
j=/tmp/sp.json
pagehop matrix --groups 0-1,2-3 --placement exclusive --figures read --size 4M --time 0.1 --ci 50 \
	--page-size 4k --format json >$j 2>/tmp/err && ok "matrix --placement exclusive exits 0" ||
	not_ok "matrix --placement exclusive exits 0" "$(cat /tmp/err)"
bad=
for row in $(jq -r '.cells[] | "\(.cpu_node):\(.cpus_found):\(.threads)"' $j); do
	g=${row%%:*} rest=${row#*:}
	cpus=${rest%:*} t=${rest##*:}
	want=$([ "$g" = 0 ] && echo 0,1 || echo 2,3)
	[ "$t" = 2 ] && [ "$(ncores "$cpus")" = 2 ] && [ "$(nodes_of "$cpus" | tr , '\n' | sort -u | paste -sd,)" = "$want" ] ||
		bad="$bad $row"
done
[ -n "$(jq -r '.cells[0].cpus_found' $j)" ] && [ -z "$bad" ] &&
	ok "placement exclusive: each socket row on one CPU per core of its 2 nodes" ||
	not_ok "placement exclusive rows" "bad:$bad $(jq -c '[.cells[] | [.cpu_node, .cpus, .cpus_found]]' $j)"
pagehop matrix --cpunodebind 0 --threads 2 --placement exclusive --figures read --size 1M >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 2 ] && [ ! -s /tmp/out ] && [ "$(wc -l </tmp/err)" = 1 ] && ok "placement exclusive, 2 threads on a 1-core node: exit 2" ||
	not_ok "2 threads on a 1-core node" "rc $rc: $(cat /tmp/err)"

# hops from CPU 0: level 0 node 0 (10), level 1 node 1 (16), level 2 node
# 2 (22, the lower of 2 and 3), each row verified on its node.
j=/tmp/h.json
pagehop hops --physcpubind 0 --min 64K --max 64K --kernel read --time 0.1 --ci 50 --format json >$j 2>/tmp/err
got=$(jq -c '[.hops[] | select(.figure == "read") | [.level, .mem_node, .distance, .verified]]' $j 2>&1)
[ "$got" = '[[0,0,10,true],[1,1,16,true],[2,2,22,true]]' ] && ok "hops: a node per level, verified" ||
	not_ok "hops levels" "$got $(cat /tmp/err)"
