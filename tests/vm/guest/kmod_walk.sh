# SPDX-License-Identifier: GPL-2.0-only
# kmod_walk.sh - QUERY's page-table walk: a call over 64 GiB of empty page
# tables is bounded in time, makes progress and dies at once on SIGKILL,
# with no soft lockup; PROT_NONE leaves are holes; shared hugetlb PMD
# tables are walked while another process unshares and migrates them.
. /tests/tap.sh
plan 8

check_v "QUERY over 64 GiB of empty PTE tables: each call and a SIGKILL within 1 s" kwalk query-sparse
# The soft-lockup watchdog reports after 20 s, RCU stalls after 21 s: both
# would be in the log by now if the walk above had run unbounded.
sleep 1
if dmesg | grep -E 'soft lockup|rcu.*stall' >/tmp/lockup; then
	not_ok "no soft lockup or RCU stall in the log" "$(head -5 /tmp/lockup)"
else
	ok "no soft lockup or RCU stall in the log"
fi

check_v "anonymous 4 KiB made PROT_NONE: a hole" kwalk query-protnone anon 4k 0
f=/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages
echo 4 >$f
check_v "hugetlb 2 MiB made PROT_NONE: a hole" kwalk query-protnone hugetlb 2m 1
echo 0 >$f
hp=
for n in $(seq 0 $((VM_NODES - 1))); do
	[ "$(cat /sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/free_hugepages)" -ge 1 ] && hp=$n
done
if [ -n "$hp" ]; then
	check_v "hugetlb 1 GiB made PROT_NONE: a hole" kwalk query-protnone hugetlb 1g $hp
else
	not_ok "hugetlb 1 GiB made PROT_NONE" "no free 1 GiB hugetlb page (one is reserved at boot)"
fi
case "$VM_KVER" in
6.1.*)
	skip "pagehop.ko 2 MiB made PROT_NONE" "no 2 MiB buffers on $VM_KVER"
	skip "pagehop.ko 1 GiB made PROT_NONE" "no 1 GiB buffers on $VM_KVER"
	;;
*)
	check_v "pagehop.ko 2 MiB made PROT_NONE: a hole" kwalk query-protnone kmod 2m 1
	# The first node with a free aligned GiB (gib_nodes).  Where no node
	# has one, the check cannot be made: a skip that says so.
	for n in $(gib_nodes); do
		o=$(kwalk query-protnone kmod 1g $n 2>&1)
		rc=$?
		o=$(sub_out "$o")
		case "$o" in ENOMEM*) [ $rc = 0 ] && continue ;; esac
		break
	done
	case "$rc:$o" in
	0:ENOMEM*) skip "pagehop.ko 1 GiB made PROT_NONE" "no node gave a free aligned GiB (best effort, docs/abi.md)" ;;
	0:*) ok "pagehop.ko 1 GiB made PROT_NONE: a hole (node $n)" ;;
	*) not_ok "pagehop.ko 1 GiB made PROT_NONE" "$o" ;;
	esac
	printf '%s\n' "$o" | sed 's/^/# /'
	;;
esac

for n in 0 1; do
	echo 12 >/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages
done
check_v "QUERY of a shared hugetlb PMD table while it is unshared and migrated" kwalk query-hugetlb-share 5
for n in 0 1; do
	echo 0 >/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages
done
