# SPDX-License-Identifier: GPL-2.0-only
# test_info.sh - "pagehop info --format json" against /sys, /proc and libnuma's
# own view (numactl --hardware), read here independently of the command.
. "$(dirname "$0")/lib.sh"

"$PAGEHOP" info --format json >"$TMP/i.json" 2>"$TMP/err" || fail "info exits 0: $(cat "$TMP/err")"
jq -e . "$TMP/i.json" >/dev/null || fail "info output is JSON"

# Nodes: the node directories in sysfs.
sys_nodes=$(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//' | sort -n | tr '\n' ' ')
got_nodes=$(jq -r '.nodes[].node' "$TMP/i.json" | tr '\n' ' ')
expect "node ids" "$got_nodes" "$sys_nodes"

for n in $sys_nodes; do
	expect "node $n cpulist" "$(jq -r ".nodes[] | select(.node == $n) | .cpus" "$TMP/i.json")" \
		"$(cat /sys/devices/system/node/node$n/cpulist)"
	# MemTotal in /sys is in kB; the JSON in MiB (floor).
	kb=$(awk '/MemTotal/ {print $4}' /sys/devices/system/node/node$n/meminfo)
	expect "node $n mem_total_MiB" "$(jq -r ".nodes[] | select(.node == $n) | .mem_total_MiB" "$TMP/i.json")" \
		"$((kb / 1024))"
	for sz in 2048kB:hp2M 1048576kB:hp1G; do
		d=/sys/devices/system/node/node$n/hugepages/hugepages-${sz%%:*}
		[ -d "$d" ] || continue
		expect "node $n ${sz#*:}_total" "$(jq -r ".nodes[] | select(.node == $n) | .${sz#*:}_total" "$TMP/i.json")" \
			"$(cat "$d/nr_hugepages")"
	done
done

# SLIT: numactl --hardware's "node distances" rows, the second path.
if command -v numactl >/dev/null; then
	want=$(numactl --hardware | awk '/^node distances:/ {on=1; getline; next} on && /^ *[0-9]+:/ {sub(/^ *[0-9]+: */, ""); printf "%s ", $0}' | tr -s ' ' | sed 's/ $//')
	got=$(jq -r '[.distances.values[][]] | map(tostring) | join(" ")' "$TMP/i.json")
	expect "distances equal numactl --hardware" "$got" "$want"
else
	fail "numactl missing (scripts/install-deps.sh check installs it)"
fi

expect "THP mode" "$(jq -r .memory.thp_enabled "$TMP/i.json")" \
	"$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)"
expect "cpus" "$(jq -r .cpu.cpus "$TMP/i.json")" "$(nproc --all)"
grep -q '^flags.* avx2' /proc/cpuinfo && want=true || want=false
expect "avx2 listed iff /proc/cpuinfo has it" \
	"$(jq -r '.cpu.isa | split(",") | index("avx2") != null' "$TMP/i.json")" "$want"
grep -q '^flags.* constant_tsc.* nonstop_tsc' /proc/cpuinfo && want=true || want=false
expect "TSC invariant iff the kernel saw constant_tsc and nonstop_tsc" \
	"$(jq -r .clock.tsc_invariant "$TMP/i.json")" "$want"
expect "kernel clocksource" "$(jq -r .clock.kernel_clocksource "$TMP/i.json")" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
# The TSC frequency must agree with the kernel's own, where it logged it.
khz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p; s/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | tail -n1)
if [ -n "$khz" ]; then
	hz=$(jq -r .clock.tsc_hz "$TMP/i.json")
	awk -v a="$hz" -v b="$khz" 'BEGIN { e = (a - b * 1e6) / (b * 1e6); if (e < 0) e = -e; exit !(e < 0.002) }' &&
		pass "tsc_hz $hz within 0.2% of the kernel's $khz MHz" ||
		fail "tsc_hz $hz vs kernel $khz MHz"
fi
expect "provenance kernel" "$(jq -r .provenance.kernel "$TMP/i.json")" "$(uname -r) $(uname -v)"
expect "module absent on this host" "$(jq -r .module.present "$TMP/i.json")" \
	"$([ -e /dev/pagehop ] && echo true || echo false)"

# The other two formats and usage errors.
"$PAGEHOP" info >"$TMP/t" && grep -q '^node distances:' "$TMP/t" && pass "table format" || fail "table format"
"$PAGEHOP" info --format csv >"$TMP/c" && grep -q '^# metric: distance' "$TMP/c" && pass "csv format" || fail "csv format"
"$PAGEHOP" --format json 2>/dev/null; [ $? -eq 2 ] && pass "options before a command are refused" || fail "pagehop --format"
"$PAGEHOP" >"$TMP/d" 2>"$TMP/e" && grep -q '^first figures:' "$TMP/d" && grep -q '^  latency_4k ' "$TMP/d" &&
	pass "no arguments runs the survey" || fail "default job: $(cat "$TMP/e")"
usage_error "info --bogus" info --bogus
usage_error "info --format xml" info --format xml
usage_error "info --format (no value)" info --format
usage_error "info extra argument" info extra
usage_error "unknown command" frobnicate
"$PAGEHOP" info --help | grep -q '^usage: pagehop info' && pass "info --help" || fail "info --help"
"$PAGEHOP" help info | grep -q '^usage: pagehop info' && pass "help info" || fail "help info"
finish
