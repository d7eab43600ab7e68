# SPDX-License-Identifier: GPL-2.0-only
# diag.sh - pagehop check in a 4-node guest, on faults that need no timing
# (--budget 2: under TCG no timed figure fits, the exact ones always do),
# each read against /sys, the second path:
#   a baseline of another machine model gives UNKNOWN, exit 3;
#   hugepages no longer to be had on one node are flagged, against the
#   baseline and against its siblings;
#   memory offlined on a node after the baseline is flagged against it;
#   a node with half its siblings' memory (node 3, blocks offlined) is
#   flagged without a baseline.
. /tests/tap.sh
plan 11

hp() { echo "$2" >/sys/devices/system/node/node$1/hugepages/hugepages-2048kB/nr_hugepages; }
memkb() { awk '/MemTotal/ {print $4}' /sys/devices/system/node/node$1/meminfo; }
for n in 0 1 2 3; do hp $n 4; done
pagehop check --budget 2 --format json >/tmp/base.json 2>/tmp/err
rc=$?
case $rc in 0|1) ok "check on the sound guest: exit $rc ($(jq -r .verdict.line /tmp/base.json))" ;;
*) not_ok "check on the sound guest" "rc $rc: $(jq -r .verdict.line /tmp/base.json 2>&1) $(cat /tmp/err)" ;; esac
n=$(jq '[.figures[] | select(.figure == "mem_total")] | length' /tmp/base.json)
[ "$n" = 4 ] && ok "mem_total of 4 nodes" || not_ok "mem_total" "$n"

# ---- another model ----
jq '.identity.model_key |= sub("nodes=4"; "nodes=8")' /tmp/base.json >/tmp/other.json
pagehop check --budget 2 --baseline /tmp/other.json >/tmp/out 2>/tmp/err
rc=$?
[ $rc = 3 ] && [ "$(cat /tmp/out /tmp/err | wc -l)" = 1 ] && grep -q '^PAGEHOP UNKNOWN - .*nodes: 4 here, 8 in the baseline' /tmp/out &&
	ok "another model: $(cat /tmp/out)" || not_ok "another model" "rc $rc: $(cat /tmp/out /tmp/err)"

# ---- hugepages gone on node 1 ----
hp 1 0
[ "$(cat /sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages)" = 0 ] &&
	ok "node 1 has no free 2M page (sysfs)" || not_ok "node 1 pool" "$(cat /sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages)"
pagehop check --budget 2 --baseline /tmp/base.json --format json >/tmp/c.json 2>/tmp/err
rc=$?
s=$(jq -r '[.findings[] | select(.figure == "hugepages_2m" and .node == 1) | "\(.basis):\(.status)"] | sort | join(" ")' /tmp/c.json)
[ "$s" = "baseline:WARNING siblings:WARNING" ] && ok "hugepages_2m on node 1 flagged against baseline and siblings" ||
	not_ok "hugepages flagged" "$s; $(jq -r .verdict.line /tmp/c.json)"
[ $rc -ge 1 ] && ok "verdict: $(jq -r .verdict.line /tmp/c.json)" || not_ok "verdict" "rc $rc"
hp 1 4

# ---- memory offlined on node 2 after the baseline ----
before=$(memkb 2)
off=
for b in /sys/devices/system/node/node2/memory*; do
	[ -f "$b/state" ] || continue
	if echo offline >"$b/state" 2>/dev/null; then off="$off $b"; break; fi
done
after=$(memkb 2)
[ -n "$off" ] && [ "$after" -lt "$before" ] && ok "a block of node 2 offline: $before -> $after kB" ||
	not_ok "offline a block of node 2" "$before -> $after"
pagehop check --budget 2 --baseline /tmp/base.json --format json >/tmp/c.json 2>/tmp/err
rc=$?
s=$(jq -r '.findings[] | select(.figure == "mem_total" and .node == 2 and .basis == "baseline") | .status' /tmp/c.json)
[ "$s" = CRITICAL ] && [ $rc = 2 ] && ok "node 2 memory flagged: $(jq -r .verdict.line /tmp/c.json)" ||
	not_ok "node 2 memory" "status $s rc $rc: $(jq -r .verdict.line /tmp/c.json)"
for b in $off; do echo online >"$b/state"; done
[ "$(memkb 2)" = "$before" ] && ok "node 2 back online" || not_ok "node 2 back" "$(memkb 2)"

# ---- node 3 with half its siblings' memory, no baseline ----
before=$(memkb 3)
for b in /sys/devices/system/node/node3/memory*; do
	[ "$(memkb 3)" -le $((before / 2)) ] && break
	[ -f "$b/state" ] && echo offline >"$b/state" 2>/dev/null
done
after=$(memkb 3)
[ "$after" -le $((before * 6 / 10)) ] && ok "node 3 down to $after kB of $before" || not_ok "node 3 halved" "$after of $before"
pagehop check --budget 2 --format json >/tmp/c.json 2>/tmp/err
rc=$?
s=$(jq -r '.findings[] | select(.figure == "mem_total" and .node == 3 and .basis == "siblings") | .status' /tmp/c.json)
[ "$s" = CRITICAL ] && [ $rc = 2 ] && jq -r .verdict.line /tmp/c.json | grep -q '^PAGEHOP CRITICAL - node 3 mem_total' &&
	ok "without a baseline: $(jq -r .verdict.line /tmp/c.json)" || not_ok "node 3 half" "status $s rc $rc: $(jq -r .verdict.line /tmp/c.json)"
