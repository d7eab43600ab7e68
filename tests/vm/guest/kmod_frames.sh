# SPDX-License-Identifier: GPL-2.0-only
# kmod_frames.sh - one allocation, three translations (PAGEHOP_MMAP_XLATE):
# a 1 GiB buffer mapped by 4 KiB PTEs, 2 MiB PMDs and its 1 GiB PUD has the
# same frames in each (QUERY, and a pattern written through one view read
# through the others); a PTE view alone keeps the GiB alive through FREE,
# close, mremap and fork, and frees it at munmap, with nothing in the log
# (run.sh checks for bad pud/pmd/page and refcount warnings).
. /tests/tap.sh
# on_some_node DESC SUBCOMMAND: the first node with a free aligned GiB
# (gib_nodes); every node's ENOMEM, in both rounds, is a failure.
on_some_node() {
	_d=$1
	shift
	for n in $(gib_nodes); do
		o=$(kmodtest "$@" $n 2>&1)
		rc=$?
		o=$(sub_out "$o")
		case "$o" in ENOMEM*) [ $rc = 0 ] && continue ;; esac
		break
	done
	case "$rc:$o" in
	0:ENOMEM*) not_ok "$_d" "no node gave a free aligned GiB" ;;
	0:*) ok "$_d (node $n)" ;;
	*) not_ok "$_d" "$o" ;;
	esac
	printf '%s\n' "$o" | sed 's/^/# /'
}
plan 3

case "$VM_KVER" in
6.1.*)
	check_v "4 KiB buffers: PTE views only, larger ones refused" kmodtest frames-refused
	skip "1 GiB buffer by PTE, PMD and PUD" "no huge buffers on $VM_KVER"
	skip "a PTE view of a 1 GiB buffer: lifetime" "no huge buffers on $VM_KVER"
	;;
*)
	check_v "2 MiB buffer by PTE and PMD: identical frames" kmodtest frames 1 2m
	on_some_node "1 GiB buffer by PTE, PMD and PUD: identical frames" frames-1g
	on_some_node "a PTE view of a 1 GiB buffer: FREE, close, mremap, fork, munmap" frames-life
	;;
esac
