# SPDX-License-Identifier: GPL-2.0-only
# auto_fallback.sh - --backend auto when pagehop.ko refuses: with the
# module's pin cap below the buffer (ALLOC says E2BIG), 1 GiB pages come from
# the 1 GiB page reserved at boot and 2 MiB pages from a pool --reserve
# grows; the row names the hugetlb backend, a note says why, and the pages
# are read back (QUERY) on the node and of the size asked.  --backend kmod
# still fails, naming the cap.
. /tests/tap.sh

insmod /lib/modules/pagehop.ko || { plan 1; not_ok "insmod"; exit 0; }
feat=$(pagehop info --format json | jq -r .module.features)
case ",$feat," in
*,1g,*) ;;
*) plan 1; skip "--backend auto falls back to hugetlb" "pagehop.ko maps no 1 GiB pages on $VM_KVER"
   rmmod pagehop; exit 0 ;;
esac
plan 7
cap=/sys/module/pagehop/parameters/max_pinned_mb
echo 16 >$cap
n=$VM_HP1G_NODE

# row JSON FIELD
row() { jq -r ".chase[0].$2" "$1"; }

if pagehop chase --membind $n --cpunodebind $n --page-size 1g --size 16M --time 0.05 --ci 50 \
	--format json >/tmp/f.json 2>/tmp/err; then
	got="$(row /tmp/f.json backend) $(row /tmp/f.json node) $(row /tmp/f.json page_size) $(row /tmp/f.json verified)"
	[ "$got" = "hugetlb $n 1G true" ] && ok "1G, module capped: row says $got" || not_ok "1G row" "got $got"
	note=$(jq -r '.notes[]' /tmp/f.json | grep 'backend auto')
	case "$note" in
	*"pin cap"*hugetlb*) ok "1G: note says why: $note" ;;
	*) not_ok "1G: note" "notes: $(jq -c .notes /tmp/f.json)" ;;
	esac
	found=$(jq -r '.buffers[0].found' /tmp/f.json)
	case "$found" in
	*QUERY*) ok "1G: read back through QUERY: $found" ;;
	*) not_ok "1G: read back" "$found" ;;
	esac
else
	not_ok "1G, module capped: chase" "$(cat /tmp/err)"
	not_ok "1G: note"
	not_ok "1G: read back"
fi

pagehop chase --backend kmod --membind $n --page-size 1g --size 16M --time 0.05 >/tmp/o 2>/tmp/err
rc=$?
[ $rc = 4 ] && grep -q "pin cap" /tmp/err && ok "--backend kmod, capped: exit 4: $(cat /tmp/err)" ||
	not_ok "--backend kmod, capped" "exit $rc: $(cat /tmp/err)"

f=/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages
before=$(cat $f)
if pagehop chase --membind 1 --cpunodebind 1 --page-size 2m --size 32M --reserve --time 0.05 --ci 50 \
	--format json >/tmp/m.json 2>/tmp/err; then
	got="$(row /tmp/m.json backend) $(row /tmp/m.json node) $(row /tmp/m.json page_size) $(row /tmp/m.json verified)"
	[ "$got" = "hugetlb 1 2M true" ] && ok "2M, module capped, --reserve: row says $got" ||
		not_ok "2M row" "got $got"
else
	not_ok "2M, module capped, --reserve: chase" "$(cat /tmp/err)"
fi
[ "$(cat $f)" = "$before" ] && ok "2M: node 1's pool back to $before" || not_ok "2M pool" "$(cat $f), was $before"

echo 0 >$cap
check "rmmod" rmmod pagehop
