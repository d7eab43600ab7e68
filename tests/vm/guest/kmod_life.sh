# SPDX-License-Identifier: GPL-2.0-only
# kmod_life.sh - buffer lifetimes: the fd and every mapping each keep a
# buffer alive; fork does not pass mappings on, and after MADV_DOFORK only
# 4 KiB ones, shared; mremap may move but not grow them, and the old address
# faults after a move; VmPin follows the buffers; rmmod is refused while any
# buffer exists.  (1 GiB buffers: in kmod_place.sh, while a free GiB is
# there.)
. /tests/tap.sh
case "$VM_KVER" in 6.1.*) sizes="4k" ;; *) sizes="4k 2m" ;; esac
nsz=$(echo $sizes | wc -w)
plan $((nsz * 9 + 5))

for s in $sizes; do
	check "$s: close the fd, then touch the mapping" kmodtest life close-then-touch $s
	check "$s: munmap, then close" kmodtest life munmap-then-close $s
	check "$s: FREE while mapped, then touch" kmodtest life free-then-touch $s
	check "$s: fork: the child has no mapping" kmodtest life fork $s
	check "$s: mremap: grow EFAULT, move keeps the pages, the old address faults" kmodtest life mremap $s
	check "$s: partial munmap keeps the rest" kmodtest life partial-munmap $s
	check "$s: MADV_DONTNEED, then the same pages fault back" kmodtest life dontneed $s
	check "$s: fork after MADV_DOFORK; nothing pinned once both exit" kmodtest dofork $s
	check "$s: VmPin follows ALLOC, FREE, munmap and close" kmodtest vmpin $s
done

# rmmod while a buffer exists: EBUSY, whether an fd or only a mapping holds it.
for mode in fd map; do
	rm -f /tmp/fifo && mkfifo /tmp/fifo
	kmodtest hold $mode /tmp/fifo &
	pid=$!
	read -r r </tmp/fifo
	if o=$(kmodtest rmmod-busy 2>&1) && ! rmmod pagehop 2>/dev/null && [ -e /dev/pagehop ]; then
		ok "rmmod with a buffer held by an $mode: refused, $(sub_out "$o")"
	else
		not_ok "rmmod with a buffer held by an $mode" "$o"
	fi
	kill $pid
	wait $pid 2>/dev/null
done
check "rmmod once the holders are gone" rmmod pagehop
check "insmod again" insmod /lib/modules/pagehop.ko
kmodtest info >/tmp/kinfo && . /tmp/kinfo
[ "$pinned" = 0 ] && ok "nothing pinned after reload" || not_ok "pinned after reload" "$pinned"
