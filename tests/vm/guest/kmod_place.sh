# SPDX-License-Identifier: GPL-2.0-only
# kmod_place.sh - every node x page size: ALLOC + mmap gives zeroed pages on
# that node, of that size, checked through QUERY and (4 KiB) move_pages and
# pagemap; sizes this kernel cannot map fail with EOPNOTSUPP.  QUERY itself
# is checked against hugetlbfs pages placed with mbind, and plain and THP
# anonymous memory.
. /tests/tap.sh
plan $((VM_NODES * 3 + 6))

case "$VM_KVER" in 6.1.*) huge=no ;; *) huge=yes ;; esac
g1ok=0
for n in $(seq 0 $((VM_NODES - 1))); do
	check_v "node $n 4 KiB x 1024" kmodtest place $n 4k 4M
	if [ $huge = yes ]; then
		check_v "node $n 2 MiB x 4" kmodtest place $n 2m 8M
		# 1 GiB is best effort: a free aligned GiB on the node, or ENOMEM.
		# One allocation per node carries placement, CHASE and lifetimes.
		if o=$(kmodtest gig $n 2>&1); then
			o=$(sub_out "$o")
			case "$o" in
			ENOMEM*) ok "node $n 1 GiB: $o" ;;
			*) ok "node $n 1 GiB: placement, CHASE, lifetimes"; g1ok=$((g1ok + 1)) ;;
			esac
			printf '%s\n' "$o" | sed 's/^/# /'
		else
			not_ok "node $n 1 GiB" "$o"
		fi
	else
		check "node $n 2 MiB refused on $VM_KVER" kmodtest place $n 2m 8M --expect EOPNOTSUPP
		check "node $n 1 GiB refused on $VM_KVER" kmodtest place $n 1g 1G --expect EOPNOTSUPP
	fi
done
if [ $huge = yes ]; then
	# With 3 GiB nodes (numa4big) the middle GiB of a node is free: at least
	# one node must give a 1 GiB buffer.  A GiB can be busy for a moment
	# (gib_nodes), so where no node gave one, the nodes are asked again.
	if [ $g1ok = 0 ]; then
		for n in $(gib_nodes); do
			o=$(kmodtest gig $n 2>&1) || break
			o=$(sub_out "$o")
			case "$o" in ENOMEM*) continue ;; esac
			g1ok=1
			diag "second round: node $n 1 GiB: placement, CHASE, lifetimes"
			break
		done
		[ $g1ok = 1 ] || diag "second round: $o"
	fi
	[ $g1ok -ge 1 ] && ok "1 GiB buffers placed on $g1ok nodes" || not_ok "no node gave a 1 GiB buffer"
else
	ok "1 GiB buffers not offered on $VM_KVER"
fi
check "unsupported sizes agree with INFO" kmodtest err unsupported

# QUERY against hugetlbfs: the 1 GiB page reserved at boot, on the node
# /sys says it is (the boot reservation falls back to another node if the
# one asked for has no free aligned GiB) ...
hp=
for n in $(seq 0 $((VM_NODES - 1))); do
	[ "$(cat /sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/free_hugepages)" -ge 1 ] && hp=$n
done
[ "$hp" = "$VM_HP1G_NODE" ] || diag "the boot-time 1 GiB page is on node '$hp', not $VM_HP1G_NODE"
check_v "QUERY of a hugetlb 1 GiB page on node $hp" kmodtest hugetlb 1g ${hp:-$VM_HP1G_NODE}
# ... and 2 MiB pages reserved here on node 1 only.
f=/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages
echo 2 >$f
check_v "QUERY of hugetlb 2 MiB pages on node 1" kmodtest hugetlb 2m 1
echo 0 >$f
check_v "QUERY of anonymous 4 KiB and THP memory on node 3" kmodtest anon 3
check "QUERY paging with max_entries 1" kmodtest query-paging
