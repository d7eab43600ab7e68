# SPDX-License-Identifier: GPL-2.0-only
# info.sh - "pagehop info" in a 4-node guest reports exactly the nodes, SLIT
# and HMAT the guest was booted with (tests/vm/lib.sh), in all three formats,
# and agrees with /sys read directly.
. /tests/tap.sh
plan 15

j=/tmp/info.json
if pagehop info --format json >$j 2>/tmp/info.err; then ok "info --format json exits 0"; else not_ok "info --format json exits 0" "$(cat /tmp/info.err)"; fi
check "json parses" jq -e . $j

n=$(jq '.nodes | length' $j)
[ "$n" = "$VM_NODES" ] && ok "reports $VM_NODES nodes" || not_ok "reports $VM_NODES nodes" "got $n"

# Each node has one CPU, its own id.
bad=$(jq -r '.nodes[] | select(.cpus != (.node | tostring)) | .node' $j)
[ -z "$bad" ] && ok "node N has CPU N" || not_ok "node N has CPU N" "wrong: $bad"

# The SLIT as booted, row by row.
got=$(jq -r '[.distances.values[][]] | map(tostring) | join(" ")' $j)
[ "$got" = "$VM_SLIT" ] && ok "SLIT is the one booted: $got" || not_ok "SLIT is the one booted" "want $VM_SLIT got $got"

# The same through /sys, the second path.
sys=$(for i in 0 1 2 3; do cat /sys/devices/system/node/node$i/distance; done | tr '\n' ' ' | sed 's/ *$//')
[ "$got" = "$sys" ] && ok "SLIT agrees with /sys" || not_ok "SLIT agrees with /sys" "sys $sys"

# The firmware's SLIT, read back: a table Linux takes (10 on the diagonal, others above 10).
fw=$(jq -r '.firmware_slit | "\(.status) \(.localities)"' $j)
[ "$fw" = "accepted 4" ] && ok "firmware SLIT accepted, 4 localities" || not_ok "firmware SLIT" "$(jq -c .firmware_slit $j)"

# HMAT: every node's best initiator is itself, at the local figures.
hm=$(jq -r "[.hmat[] | select(.access == 0) | select(.initiators == (.node|tostring)) | select(.read_lat_ns == $VM_HMAT_LOCAL_LAT and .write_lat_ns == $VM_HMAT_LOCAL_LAT)] | length" $j)
[ "$hm" = "$VM_NODES" ] && ok "HMAT access0 latency $VM_HMAT_LOCAL_LAT ns local on all nodes" || not_ok "HMAT access0 latency" "$(jq -c .hmat $j)"
hb=$(jq -r "[.hmat[] | select(.access == 0) | select(.read_bw_MiBps == $VM_HMAT_LOCAL_BW and .write_bw_MiBps == $VM_HMAT_LOCAL_BW)] | length" $j)
[ "$hb" = "$VM_NODES" ] && ok "HMAT access0 bandwidth $VM_HMAT_LOCAL_BW MiB/s on all nodes" || not_ok "HMAT access0 bandwidth" "$(jq -c .hmat $j)"

# The 1 GiB page reserved at boot is on its node, as /sys says.
hp=$(jq -r ".nodes[] | select(.node == $VM_HP1G_NODE) | .hp1G_total" $j)
syshp=$(cat /sys/devices/system/node/node$VM_HP1G_NODE/hugepages/hugepages-1048576kB/nr_hugepages)
[ "$hp" = 1 ] && [ "$syshp" = 1 ] && ok "1 GiB page reported on node $VM_HP1G_NODE" || not_ok "1 GiB page on node $VM_HP1G_NODE" "info $hp sys $syshp"

# Table: numactl's layout.
pagehop info >/tmp/info.txt 2>&1
row2=$(grep -A4 '^node distances:' /tmp/info.txt | sed -n 5p)
want2=$(printf '%3d:' 2; for v in $(echo "$VM_SLIT" | cut -d' ' -f9-12); do printf ' %3d' "$v"; done)
[ "$row2" = "$want2" ] && ok "table prints the SLIT as numactl does" || not_ok "table numactl layout" "want '$want2' got '$row2'"

# CSV: the matrix block reads back to the same values.
pagehop info --format csv >/tmp/info.csv 2>&1
csv=$(awk '/^# name: distances/{on=1} on && /^[0-9]/{sub(/^[0-9]+,/,""); gsub(/,/," "); printf "%s ", $0} on && /^$/{exit}' /tmp/info.csv | sed 's/ *$//')
[ "$csv" = "$VM_SLIT" ] && ok "CSV carries the SLIT" || not_ok "CSV carries the SLIT" "got '$csv'"

pagehop info --bogus >/tmp/o 2>/tmp/e
rc=$?
[ $rc = 2 ] && [ ! -s /tmp/o ] && [ "$(wc -l </tmp/e)" = 1 ] && ok "--bogus: exit 2, one line, nothing on stdout" || not_ok "--bogus" "rc $rc: $(cat /tmp/e)"

# The module: info reports whether it is loaded and its API version.
if [ -f /lib/modules/pagehop.ko ]; then
	if insmod /lib/modules/pagehop.ko; then
		pagehop info --format json >$j
		u=$(jq -r '.module.usable' $j)
		v=$(jq -r '.module.api_version' $j)
		[ "$u" = true ] && [ "$v" = 1 ] && ok "module loaded: usable, API 1" || not_ok "module loaded" "$(jq -c .module $j)"
		rmmod pagehop
	else
		not_ok "insmod pagehop.ko"
	fi
else
	skip "module loaded: usable, API 1" "pagehop.ko not built yet"
fi
pagehop info --format json >$j
[ "$(jq -r '.module.usable' $j)" = false ] && ok "module absent: reported unusable" || not_ok "module absent" "$(jq -c .module $j)"
