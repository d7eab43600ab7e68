# SPDX-License-Identifier: GPL-2.0-only
# kernel_view.sh - pagehop's prediction of what the kernel derives from the
# booted SLIT (section kernel_view of "pagehop slit", docs/slit.md section
# 13) against what this kernel shows: cpu0's NUMA scheduling domains in
# debugfs (one per distinct distance above the local one, on this
# machine, where every level spans more nodes than the one below), and
# their balancing flags (kept on every level within node_reclaim's
# distance).  The fallback order is exposed by no file: skipped, said why.
# The memory tiers pagehop predicts from this machine's HMAT and SLIT, by
# this kernel's rule (section memory_tiers), against
# /sys/devices/virtual/memory_tiering/memory_tierN/nodelist.  The
# weighted-interleave weights (section interleave_weights): the four equal
# local bandwidths of the booted HMAT give 8 each, 1 after the gcd; the
# weights pagehop reads from /sys/kernel/mm/mempolicy/weighted_interleave
# against cat of its nodeN files (6.9 and later), or its absence (6.1).
# The hwloc
# XML of "pagehop slit --hwloc" loads in hwloc's tools when the image has
# them (tests/vm/lib.sh copies hwloc-info, lstopo-no-graphics).
. /tests/tap.sh
plan 8

flat_csv >/tmp/kflat.csv
sys_slit >/tmp/kslit.txt
pagehop slit --input /tmp/kflat.csv --slit /tmp/kslit.txt --format json >/tmp/k.json 2>/tmp/err
levels=$(jq -r .kernel_view.sched_numa_levels_slit /tmp/k.json)
[ -n "$levels" ] && [ "$levels" != null ] && ok "pagehop predicts $levels sched levels" ||
	not_ok "kernel_view" "$(cat /tmp/err; jq -c 'keys' /tmp/k.json)"
nlev=${levels%% *}

mount -t debugfs none /sys/kernel/debug 2>/dev/null
d=/sys/kernel/debug/sched/domains/cpu0
# The domains appear in debugfs only with sched_verbose
# (kernel/sched/debug.c, update_sched_domain_debugfs()): turn it on, and
# if the kernel does not then build the directory at once, rebuild the
# domains by taking a CPU off line and back.
if [ ! -d $d ] && [ -w /sys/kernel/debug/sched/verbose ]; then
	echo Y >/sys/kernel/debug/sched/verbose
	if [ ! -d $d ]; then
		echo 0 >/sys/devices/system/cpu/cpu3/online
		echo 1 >/sys/devices/system/cpu/cpu3/online
	fi
fi
if [ -d $d ]; then
	names=$(cat $d/domain*/name | tr '\n' ' ')
	numa=$(cat $d/domain*/name | grep -c '^NUMA$')
	[ "$numa" = $((nlev - 1)) ] && ok "cpu0 has $numa NUMA domains, levels - 1 ($names)" ||
		not_ok "NUMA domains" "pagehop: $levels; kernel: $names"
	beyond=$(jq -r .kernel_view.beyond_reclaim_slit /tmp/k.json)
	bad=0
	for f in $d/domain*; do
		grep -q '^NUMA$' $f/name || continue
		grep -q SD_BALANCE_FORK $f/flags || bad=$((bad + 1))
	done
	[ "$beyond" = none ] && [ $bad = 0 ] &&
		ok "every NUMA level balances on fork, as within reclaim distance (pagehop: beyond $beyond)" ||
		not_ok "reclaim distance" "pagehop beyond: $beyond; levels without SD_BALANCE_FORK: $bad; $(cat $d/domain*/flags)"
else
	skip "NUMA domains" "no $d even with sched_verbose (a kernel without CONFIG_SCHED_DEBUG or debugfs)"
	skip "balancing flags" "no $d"
fi
# Memory tiers: pagehop does not predict them yet (docs/slit.md section 13); shown for the log.
diag "memory tiers: $(ls /sys/devices/virtual/memory_tiering 2>/dev/null | tr '\n' ' ')"
skip "fallback order" "no file exposes a node's zonelist, and filling a 2 GiB node to watch where pages go would take minutes of TCG time"

# Memory tiers: pagehop's prediction for the firmware's tables, by this
# kernel's rule (a CSV names no host: --this-kernel says it is this machine's).
pagehop slit --input /tmp/kflat.csv --slit /tmp/kslit.txt --hmat-table /sys/firmware/acpi/tables/HMAT \
	--this-kernel --format json >/tmp/t.json 2>/tmp/err
want=$(jq -r .memory_tiers.tiers_firmware /tmp/t.json)
mt=/sys/devices/virtual/memory_tiering
if [ -d $mt ] && ls $mt/memory_tier* >/dev/null 2>&1; then
	got=$(for f in $mt/memory_tier*; do echo "${f##*memory_tier} $(cat $f/nodelist)"; done | sort -n | sed 's/ /:/' | tr '\n' ' ' | sed 's/ $//')
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "memory tiers as predicted ($(jq -r .memory_tiers.rule /tmp/t.json)): $got" ||
		not_ok "memory tiers" "pagehop: $want; sysfs: $got; $(cat /tmp/err)"
else
	skip "memory tiers" "no $mt/memory_tier* in this kernel (pagehop predicts $want)"
fi

# Weighted interleave: what 6.16+ would derive from this HMAT, and what this kernel holds.
wi_check /tmp/t.json "0 1 2 3" "0:1 1:1 2:1 3:1"

# hwloc: the matrix as user distances, read back by lstopo.
if command -v lstopo-no-graphics >/dev/null && command -v hwloc-info >/dev/null; then
	pagehop slit --input /tmp/kflat.csv --slit /tmp/kslit.txt --hwloc /tmp/k.xml >/dev/null 2>/tmp/err
	got=$(lstopo-no-graphics --input /tmp/k.xml --distances 2>&1 | awk '/name pagehopLatency/ { on = 1; next } /matrix \(name/ { on = 0 } on && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) printf "%s ", $i }' | sed 's/ $//')
	want=$(awk -F, '/^[0-9]/ { for (i = 2; i <= NF; i++) printf "%d ", $i * 1000 + 0.5 }' /tmp/kflat.csv | sed 's/ $//')
	hwloc-info --input /tmp/k.xml >/dev/null 2>&1 && [ -n "$got" ] && [ "$got" = "$want" ] &&
		ok "hwloc XML loads; lstopo reads pagehopLatency back as measured (ps): $got" ||
		not_ok "hwloc" "want $want got $got; $(cat /tmp/err)"
else
	skip "hwloc XML" "hwloc-info or lstopo-no-graphics not in the guest image (hwloc-nox missing on the host)"
fi
