# SPDX-License-Identifier: GPL-2.0-only
# memtier_cpuless.sh - on tier5 (tests/vm/lib.sh): four DRAM nodes with
# CPUs and a CPU-less node 4 whose HMAT figures are worse.  pagehop's
# memory tiers for this machine's HMAT and SLIT, by this kernel's rule
# (section memory_tiers, docs/slit.md section 13), against
# /sys/devices/virtual/memory_tiering/memory_tierN/nodelist; by hand, on
# 6.7 and later: node 0 the reference (80 ns, 20480), node 4 576 * 600 /
# 160 = 2160, * 40960 / 10240 = 8640, memory_tier67, so "4:0-3 67:4".
# The weighted-interleave weights 6.16+ would derive: sum 4 * 20480 +
# 5120 = 87040, 32 * 20480 / 87040 = 7, 32 * 5120 / 87040 = 1, gcd 1:
# 7 7 7 7 1; and what this kernel's sysfs holds, against cat, or that
# it has none (6.1: one tier, 4:0-4, and no weighted interleave).
. /tests/tap.sh
plan 3

# Rows: the nodes with CPUs; columns: every node (node 4 is memory only).
{
	printf '# pagehop matrix\n# metric: latency_ns\nnode,0,1,2,3,4\n'
	for n in 0 1 2 3; do echo "$n,100,100,100,100,100"; done
} >/tmp/c.csv
{
	echo "node distances:"
	echo "node   0   1   2   3   4"
	for n in 0 1 2 3 4; do echo "  $n:   $(cat /sys/devices/system/node/node$n/distance)"; done
} >/tmp/cslit.txt
pagehop slit --input /tmp/c.csv --slit /tmp/cslit.txt --hmat-table /sys/firmware/acpi/tables/HMAT \
	--this-kernel --format json >/tmp/c.json 2>/tmp/err
want=$(jq -r .memory_tiers.tiers_firmware /tmp/c.json)
rule=$(jq -r .memory_tiers.rule /tmp/c.json)
case $rule in
"Linux 6.7"*) hand="4:0-3 67:4" ;;
*) hand="4:0-4" ;;
esac
mt=/sys/devices/virtual/memory_tiering
if [ -d $mt ] && ls $mt/memory_tier* >/dev/null 2>&1; then
	got=$(for f in $mt/memory_tier*; do echo "${f##*memory_tier} $(cat $f/nodelist)"; done | sort -n | sed 's/ /:/' | tr '\n' ' ' | sed 's/ $//')
	[ "$want" = "$hand" ] && [ "$got" = "$want" ] &&
		ok "memory tiers with the CPU-less node 4 as predicted and by hand ($rule): $got" ||
		not_ok "memory tiers" "pagehop: $want; by hand: $hand; sysfs: $got; $(cat /tmp/err)"
else
	skip "memory tiers" "no $mt/memory_tier* in this kernel (pagehop predicts $want)"
fi

wi_check /tmp/c.json "0 1 2 3 4" "0:7 1:7 2:7 3:7 4:1"
