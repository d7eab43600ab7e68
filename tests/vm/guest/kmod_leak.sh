# SPDX-License-Identifier: GPL-2.0-only
# kmod_leak.sh - last of the module tests: unload, and every node's free
# memory is back within 1% of what it was before the module was loaded.
. /tests/tap.sh
plan 2

check "rmmod pagehop" rmmod pagehop
sync
echo 3 >/proc/sys/vm/drop_caches
# Counted as kmod_load.sh did: buddy plus per-CPU lists, from zoneinfo.
awk '/^Node/ {n = $2 + 0} /^  pages free/ {f[n] += $3} /^ +count:/ {f[n] += $2}
	END {for (i = 0; i in f; i++) print f[i] * 4}' /proc/zoneinfo >/tmp/kmod_free_after_kB
n=0 bad= report=
while read -r before; do
	after=$(sed -n "$((n + 1))p" /tmp/kmod_free_after_kB)
	d=$((after - before))
	report="$report node$n: $before -> $after kB;"
	[ ${d#-} -le $((before / 100)) ] || bad="$bad node$n"
	n=$((n + 1))
done </tmp/kmod_free_before_kB
diag "$report"
# What moved, for whoever reads a failure.
awk 'NR == FNR {b[$1] = $2; next} {d = $2 - b[$1]; if (d > 4096 || d < -4096) printf "# %s %+d kB\n", $1, d}' \
	/tmp/kmod_meminfo_before /proc/meminfo
[ -z "$bad" ] && ok "free memory per node within 1% of before load" || not_ok "free memory changed by more than 1% on$bad" "$report"
