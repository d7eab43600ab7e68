# SPDX-License-Identifier: GPL-2.0-only
# kmod_load.sh - first of the module tests (tests/vm/plan "module"): note
# each node's free memory before pagehop.ko is loaded (kmod_leak.sh compares
# after everything), load it, and check what INFO says against /sys and
# /proc, and against what this kernel can do.
. /tests/tap.sh
plan 10

# Page cache and slab would blur the leak check: settle them first.  Free
# pages are counted as the buddy allocator's plus those parked on the
# per-CPU lists (zoneinfo "count:"), which MemFree leaves out and which
# grow by hundreds of MiB after a burst of frees.
sync
echo 3 >/proc/sys/vm/drop_caches
awk '/^Node/ {n = $2 + 0} /^  pages free/ {f[n] += $3} /^ +count:/ {f[n] += $2}
	END {for (i = 0; i in f; i++) print f[i] * 4}' /proc/zoneinfo >/tmp/kmod_free_before_kB
diag "free kB per node before load (buddy + per-CPU lists): $(tr '\n' ' ' </tmp/kmod_free_before_kB)"
cp /proc/meminfo /tmp/kmod_meminfo_before

check "insmod pagehop.ko" insmod /lib/modules/pagehop.ko
m=$(stat -c '%a %u %g' /dev/pagehop 2>&1)
[ "$m" = "600 0 0" ] && ok "/dev/pagehop is mode 0600, owned by root" || not_ok "/dev/pagehop mode" "$m"

kmodtest info >/tmp/kinfo 2>&1 || not_ok "INFO" "$(cat /tmp/kinfo)"
. /tmp/kinfo
[ "$api" = 1 ] && [ "$pinned" = 0 ] && [ "$tsc_khz" -gt 0 ] && [ "$nodes" -ge "$VM_NODES" ] &&
	ok "INFO: API 1, nothing pinned, tsc_khz $tsc_khz, $nodes node ids" ||
	not_ok "INFO basics" "$(cat /tmp/kinfo)"

# TSC flags against the CPU flags the kernel shows in /proc/cpuinfo.
# CONSTANT=1 NONSTOP=2 RELIABLE=4 KNOWN_FREQ=16
want=0
for f in constant_tsc:1 nonstop_tsc:2 tsc_reliable:4 tsc_known_freq:16; do
	grep -qw "${f%:*}" /proc/cpuinfo && want=$((want | ${f#*:}))
done
[ $((tsc_flags & 23)) = $want ] && ok "TSC flags $tsc_flags agree with /proc/cpuinfo" ||
	not_ok "TSC flags" "INFO $tsc_flags, /proc/cpuinfo says $want"

# Feature bits: what this kernel can really do (docs/abi.md).
# 4K=1 2M=2 1G=4 QUERY=8 CHASE=16 PREFETCH=32
case "$VM_KVER" in
6.1.*) want=$((1 | 8 | 16)) ;;
*) want=$((1 | 2 | 4 | 8 | 16)) ;;
esac
[ $((features & 31)) = $want ] && ok "features $features: as expected for $VM_KVER" ||
	not_ok "features for $VM_KVER" "got $features, want $want (+32 prefetch)"
# No VM has a prefetcher MSR: under TCG PREFETCH must not be claimed.
[ $((features & 32)) = 0 ] && ok "no PREFETCH claimed under TCG" || not_ok "PREFETCH claimed under TCG"

# The default cap is half of RAM (MemTotal is totalram_pages).
memtotal=$(awk '/^MemTotal/ {print $2}' /proc/meminfo)
half=$((memtotal * 1024 / 2))
d=$((cap - half))
[ ${d#-} -le 4096 ] && ok "pin cap $cap = half of MemTotal" || not_ok "pin cap" "cap $cap, half of MemTotal $half"
[ "$(cat /sys/module/pagehop/parameters/max_pinned_mb)" = 0 ] &&
	strings /lib/modules/pagehop.ko | grep -q '^parm=max_pinned_mb:.*default 0: half of RAM' &&
	ok "max_pinned_mb defaults to 0 and says it means half of RAM" ||
	not_ok "max_pinned_mb default" "$(strings /lib/modules/pagehop.ko | grep '^parm=')"

# Per-node free pages agree with /sys within 2% (both move a little).
bad=
for n in $(seq 0 $((VM_NODES - 1))); do
	eval f=\$free$n
	s=$(awk '/MemFree/ {print $4}' /sys/devices/system/node/node$n/meminfo)
	d=$((f * 4 - s))
	[ ${d#-} -le $((s / 50 + 1024)) ] || bad="$bad node$n: INFO $((f * 4)) kB /sys $s kB;"
done
[ -z "$bad" ] && ok "INFO free pages per node agree with /sys" || not_ok "INFO free pages" "$bad"

dmesg | grep -q 'pagehop: /dev/pagehop ready: API 1' && ok "load logged" || not_ok "load logged" "$(dmesg | tail -5)"
