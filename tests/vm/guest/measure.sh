# SPDX-License-Identifier: GPL-2.0-only
# measure.sh - "pagehop stream" and "pagehop chase" on every node x page
# size the kernel supports, through pagehop.ko and through hugetlb: each
# row must name the node and page size asked, as read back; a deliberately
# wrong placement (the test build's hook) must be caught before measuring,
# and the shipping binary must have no such hook; the in-kernel chase runs
# beside the user one.
. /tests/tap.sh

insmod /lib/modules/pagehop.ko || { plan 1; not_ok "insmod"; exit 0; }
feat=$(pagehop info --format json | jq -r .module.features)
diag "module features: $feat"
sizes=4k
case ",$feat," in *,2m,*) sizes="$sizes 2m" ;; esac
case ",$feat," in *,1g,*) sizes="$sizes 1g" ;; esac
n=$(echo $sizes | wc -w)
plan $((n * 8 + 4 * 2 + 1 + 6 + 3))

# row JSON FIELD
row() { jq -r ".$2[0].$3" "$1"; }

for ps in $sizes; do
	P=$(echo $ps | tr a-z A-Z)
	size=4M
	[ $ps = 1g ] && size=1G
	for node in 0 1 2 3; do
		for cmd in chase stream; do
			extra="--pattern random"
			[ $cmd = stream ] && extra="--kernel triad --threads 1"
			o=/tmp/$cmd.json
			if pagehop $cmd --backend kmod --membind $node --cpunodebind $node --page-size $ps \
				--size $size --time 0.05 --ci 50 $extra --format json >$o 2>/tmp/err; then
				got="$(row $o $cmd node) $(row $o $cmd page_size) $(row $o $cmd backend) $(row $o $cmd verified)"
				[ "$got" = "$node $P kmod true" ] && ok "$cmd kmod $P node $node: row says $got" ||
					not_ok "$cmd kmod $P node $node" "got $got"
			elif [ $ps = 1g ] && grep -q 'not enough contiguous free memory' /tmp/err; then
				# 1 GiB of contiguous free memory is best effort (docs/abi.md).
				skip "$cmd kmod $P node $node" "$(cat /tmp/err)"
			else
				not_ok "$cmd kmod $P node $node" "$(cat /tmp/err)"
			fi
		done
	done
done

# hugetlb, 2M pages reserved on each node by --reserve, read back by QUERY.
for node in 0 1 2 3; do
	for cmd in chase stream; do
		extra="--pattern random"
		[ $cmd = stream ] && extra="--kernel read --threads 1"
		o=/tmp/h.json
		if pagehop $cmd --backend hugetlb --reserve --membind $node --cpunodebind $node \
			--page-size 2m --size 8M --time 0.05 --ci 50 $extra --format json >$o 2>/tmp/err; then
			got="$(row $o $cmd node) $(row $o $cmd page_size) $(row $o $cmd backend)"
			[ "$got" = "$node 2M hugetlb" ] && ok "$cmd hugetlb 2M node $node: $got" ||
				not_ok "$cmd hugetlb 2M node $node" "got $got"
		else
			not_ok "$cmd hugetlb 2M node $node" "$(cat /tmp/err)"
		fi
	done
done
# The 1 GiB page reserved at boot on node VM_HP1G_NODE.
if pagehop chase --backend hugetlb --membind $VM_HP1G_NODE --cpunodebind $VM_HP1G_NODE --page-size 1g \
	--size 16M --time 0.05 --ci 50 --format json >/tmp/g.json 2>/tmp/err; then
	got="$(row /tmp/g.json chase node) $(row /tmp/g.json chase page_size)"
	[ "$got" = "$VM_HP1G_NODE 1G" ] && ok "chase hugetlb 1G on node $VM_HP1G_NODE" || not_ok "hugetlb 1G" "$got"
else
	not_ok "chase hugetlb 1G node $VM_HP1G_NODE" "$(cat /tmp/err)"
fi

# A wrong placement is caught: the memory goes to the next node on purpose,
# by the hook of the test build (pagehop-test); the shipping pagehop has no
# such hook and puts it where asked.
for backend in kmod anon; do
	PAGEHOP_FAULT_INJECT=node pagehop-test chase --backend $backend --membind 1 --size 4M --time 0.05 \
		>/tmp/o 2>/tmp/e
	rc=$?
	[ $rc = 1 ] && [ ! -s /tmp/o ] && grep -q 'asked 4 MiB of 4K pages on node 1; found pages 4K:4M on nodes 2:4M' /tmp/e &&
		ok "$backend: wrong node caught: $(cut -c1-120 /tmp/e)" || not_ok "$backend: wrong node" "rc $rc: $(cat /tmp/e)"
done
PAGEHOP_FAULT_INJECT=node pagehop-test chase --backend kmod --membind 1 --size 4M --time 0.05 --allow-unverified \
	--format json >/tmp/u.json 2>/dev/null
[ "$(row /tmp/u.json chase verified) $(row /tmp/u.json chase node)" = "false 2" ] &&
	ok "--allow-unverified: row marked, found node shown" || not_ok "--allow-unverified" "$(jq -c '.chase[0]' /tmp/u.json)"
# The page size too (4K asked, THP given).
PAGEHOP_FAULT_INJECT=psize pagehop-test chase --backend anon --membind 0 --size 8M --time 0.05 >/tmp/o 2>/tmp/e
[ $? = 1 ] && grep -q 'found pages .*THP' /tmp/e && ok "wrong page size caught" || not_ok "wrong page size" "$(cat /tmp/e)"

for backend in kmod anon; do
	PAGEHOP_FAULT_INJECT=node pagehop chase --backend $backend --membind 1 --size 4M --time 0.05 \
		--format json >/tmp/o 2>/tmp/e
	rc=$?
	[ $rc = 0 ] && [ "$(row /tmp/o chase verified) $(row /tmp/o chase node)" = "true 1" ] &&
		ok "$backend: the shipping pagehop ignores PAGEHOP_FAULT_INJECT" ||
		not_ok "$backend: shipping pagehop and PAGEHOP_FAULT_INJECT" "rc $rc: $(cat /tmp/e) $(jq -c '.chase[0]' /tmp/o)"
done

# In the kernel, interrupts off, beside the user-space figure.
if pagehop chase --backend kmod --in-kernel --membind 0 --cpunodebind 0 --size 4M --time 0.1 --ci 50 \
	--format json >/tmp/k.json 2>/tmp/err; then
	ok "--in-kernel: exit 0"
	k=$(row /tmp/k.json chase kern_lat_ns)
	u=$(row /tmp/k.json chase lat_ns)
	[ "$k" != null ] && [ "$(row /tmp/k.json chase kern_samples)" -gt 0 ] && ok "--in-kernel: $k ns beside $u ns in user space" ||
		not_ok "--in-kernel figure" "$(jq -c '.chase[0]' /tmp/k.json)"
else
	not_ok "--in-kernel" "$(cat /tmp/err)"
	not_ok "--in-kernel figure"
fi
rmmod pagehop && ok "rmmod after the measurements" || not_ok "rmmod"
