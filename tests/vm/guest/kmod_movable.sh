# SPDX-License-Identifier: GPL-2.0-only
# kmod_movable.sh - pinned buffers never come from ZONE_MOVABLE, memory that
# must stay offlinable (tests/vm/plan "movable": a machine booted with
# movablecore=, so that every node's upper part is Movable).  On every node
# and page size, the pages of a buffer, read back through QUERY, lie outside
# every Movable zone of /proc/zoneinfo; a 1 GiB ALLOC that finds no free
# aligned GiB below ZONE_MOVABLE fails with ENOMEM instead of taking one in
# it.
. /tests/tap.sh
case "$VM_KVER" in 6.1.*) sizes="4k" ;; *) sizes="4k 2m 1g" ;; esac
nsz=$(echo $sizes | wc -w)
plan $((VM_NODES * nsz + 2))

check "insmod pagehop.ko" insmod /lib/modules/pagehop.ko
# Each zone's span, so that a failure can be read against it.
awk '/^Node/ {z = $2 " " $4} / spanned / {s = $2} /start_pfn:/ {printf "# node %s: pfn 0x%x-0x%x\n", z, $2, $2 + s}' \
	/proc/zoneinfo
if grep -q 'zone *Movable' /proc/zoneinfo; then
	ok "the machine has a Movable zone ($(grep -o 'movablecore=[^ ]*' /proc/cmdline))"
else
	not_ok "no Movable zone: movablecore= not applied" "$(cat /proc/cmdline)"
fi
for n in $(seq 0 $((VM_NODES - 1))); do
	for s in $sizes; do
		case $s in 4k) len=4M ;; 2m) len=8M ;; 1g) len=1G ;; esac
		check_v "node $n $s: no page in ZONE_MOVABLE" kmodtest movable $n $s $len
	done
done
