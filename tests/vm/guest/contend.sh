# SPDX-License-Identifier: GPL-2.0-only
# contend.sh - c2c, locks and loaded on the 4-node guest with SMT
# (numa4smt: 2 sockets of 2 nodes, each node one core of 2 threads).  The
# relation of every c2c pair is worked out here from sysfs
# (thread_siblings_list, the highest cache's shared_cpu_list, the node
# links, physical_package_id), not from hwloc that pagehop uses; every
# line, lock and buffer must be read back on the node asked.  No timing is
# checked: TCG's are meaningless.
. /tests/tap.sh
plan 14

topo() { cat /sys/devices/system/cpu/cpu$1/topology/$2; }
node_of() { for d in /sys/devices/system/cpu/cpu$1/node*; do echo "${d##*node}"; done; }
# in_list CPU LIST: is CPU in the kernel's list "0-3,8"?
in_list() {
	local c=$1 r IFS=,
	for r in $2; do
		case $r in
		*-*) [ "$c" -ge "${r%-*}" ] && [ "$c" -le "${r#*-}" ] && return 0 ;;
		*) [ "$c" = "$r" ] && return 0 ;;
		esac
	done
	return 1
}
# The CPUs sharing CPU $1's highest-level cache.
top_cache() {
	local d lv best=0 list=$1
	for d in /sys/devices/system/cpu/cpu$1/cache/index*; do
		[ -e "$d/level" ] || continue
		lv=$(cat "$d/level")
		[ "$lv" -gt "$best" ] && best=$lv && list=$(cat "$d/shared_cpu_list")
	done
	echo "$list"
}
rel() {
	local a=$1 b=$2
	if in_list $b "$(topo $a thread_siblings_list)"; then echo smt
	elif in_list $b "$(top_cache $a)"; then echo l3
	elif [ "$(node_of $a)" = "$(node_of $b)" ]; then echo node
	elif [ "$(topo $a physical_package_id)" = "$(topo $b physical_package_id)" ]; then echo socket
	else echo remote; fi
}

# c2c over one CPU of each of three cores (two on socket 0, one on
# socket 1) and a sibling: every class this machine has appears.
cpus=0,1,2,4
j=/tmp/c2c.json
if pagehop c2c --cpus $cpus --time 0.05 --ci 50 --format json >$j 2>/tmp/err; then
	ok "c2c $cpus exits 0"
else
	not_ok "c2c $cpus exits 0" "$(cat /tmp/err)"
fi
[ "$(jq '.c2c | length' $j)" = 6 ] && ok "6 pairs" || not_ok "6 pairs" "$(jq -c '[.c2c[] | [.cpu_a, .cpu_b]]' $j)"
bad=""
for p in $(jq -r '.c2c[] | "\(.cpu_a):\(.cpu_b):\(.relation):\(.node_a):\(.node_b)"' $j); do
	oldifs=$IFS
	IFS=:
	set -- $p
	IFS=$oldifs
	a=$1 b=$2 r=$3 na=$4 nb=$5
	want=$(rel $a $b)
	[ "$r" = "$want" ] && [ "$na" = "$(node_of $a)" ] && [ "$nb" = "$(node_of $b)" ] ||
		bad="$bad $a-$b: $r/$na/$nb, sysfs $want/$(node_of $a)/$(node_of $b);"
done
[ -z "$bad" ] && ok "every pair's relation and nodes as sysfs says" || not_ok "relations" "$bad"
got=$(jq -r '[.c2c[].relation] | unique | join(",")' $j)
want=$(for a in 0 1 2 4; do for b in 0 1 2 4; do [ $a -lt $b ] && rel $a $b; done; done | sort -u | paste -sd,)
[ "$got" = "$want" ] && ok "relation classes $got, as sysfs gives them" || not_ok "classes" "got $got, want $want"
[ "$(jq -c '[.c2c_matrix | length, ([.[0] | keys[] | select(startswith("cpu") and . != "cpu")] | length)]' $j)" = "[4,4]" ] &&
	ok "a 4 x 4 matrix" || not_ok "4 x 4 matrix" "$(jq -c .c2c_matrix $j)"
[ "$(jq -r '.by_relation | map(.pairs) | add' $j)" = 6 ] && ok "by_relation covers the 6 pairs" ||
	not_ok "by_relation" "$(jq -c .by_relation $j)"
[ "$(jq -r '.line | "\(.node_asked) \(.node_found) \(.verified)"' $j)" = "0 0 true" ] &&
	ok "the line on CPU 0's node, read back" || not_ok "line" "$(jq -c .line $j)"

# A line homed on a third node: the two CPUs are on nodes 0 and 2.
j=/tmp/c2c3.json
pagehop c2c --cpus 0,4 --membind 3 --time 0.05 --ci 50 --format json >$j 2>/tmp/err ||
	echo "# c2c --membind 3: $(cat /tmp/err)"
[ "$(jq -r '.line | "\(.node_asked) \(.node_found) \(.verified)"' $j)" = "3 3 true" ] &&
	[ "$(jq -r '.c2c[0].line_node' $j)" = 3 ] &&
	ok "--membind 3: the line read back on node 3, the pair's row says so" || not_ok "--membind 3" "$(jq -c '.line, .c2c' $j)"

# locks: the lock's page on a remote node, 1 and 2 threads on two cores.
j=/tmp/locks.json
if pagehop locks --cpus 0,2 --threads 1,2 --membind 2 --time 0.05 --ci 50 --format json >$j 2>/tmp/err; then
	ok "locks exits 0"
else
	not_ok "locks exits 0" "$(cat /tmp/err)"
fi
[ "$(jq -r '.lock_memory | "\(.node_asked) \(.node_found) \(.verified)"' $j)" = "2 2 true" ] &&
	[ "$(jq -r '[.locks[].lock_node] | unique | join(",")' $j)" = 2 ] &&
	ok "the lock's page read back on node 2" || not_ok "lock node" "$(jq -c .lock_memory $j)"
[ "$(jq -r '[.locks[] | select(.threads == 2) | .cpus] | unique | join(" ")' $j)" = "0,2" ] &&
	jq -e '[.locks[] | .verified and (.acquisitions % .threads == 0)] | all' $j >/dev/null &&
	ok "every kind at 1 and 2 threads, on CPUs 0,2, verified" || not_ok "locks rows" "$(jq -c .locks $j)"

# loaded: the chaser's memory on its own node, the loaders' on another.
j=/tmp/loaded.json
if pagehop loaded --chaser 0 --loaders 2,3 --membind 0 --loader-membind 1 --mix read --delays 0 \
	--size 2M --loader-size 2M --time 0.05 --ci 50 --format json >$j 2>/tmp/err; then
	ok "loaded exits 0"
else
	not_ok "loaded exits 0" "$(cat /tmp/err)"
fi
[ "$(jq -r '[.buffers] | flatten | map("\(.node_asked):\(.verified)") | unique | join(",")' $j)" = "0:true" ] &&
	[ "$(jq -r '[to_entries[] | select(.key | test("^loader[0-9]+_memory$")) | .value | "\(.node_asked):\(.node_found):\(.verified)"] | unique | join(",")' $j)" = "1:1:true" ] &&
	[ "$(jq -r '[to_entries[] | select(.key | test("^loader[0-9]+_memory$"))] | length' $j)" = 2 ] &&
	ok "the chaser's buffer on node 0, both loaders' on node 1, read back" ||
	not_ok "loaded buffers" "$(jq -c 'del(.provenance, .run, .loaded, .loaded_method, .time)' $j)"
[ "$(jq -r '[.loaded[] | .chaser_node] | unique | join(",")' $j)" = "$(node_of 0)" ] &&
	[ "$(jq -r '[.loaded[] | select(.loaders > 0) | .loader_cpus] | unique | join(",")' $j)" = "2,3" ] &&
	ok "chaser on CPU 0's node, loaders on CPUs 2,3" || not_ok "loaded rows" "$(jq -c .loaded $j)"
