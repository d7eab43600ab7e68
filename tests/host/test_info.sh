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
# The ISAs info names are the ones the loops run: 'list' marks the same
# variants runs_here, and the kernel's flags (a second path) agree: AVX2 and
# AVX-512 variants use FMA, and the kernel clears a flag whose registers it
# does not save.
info_isa=$(jq -r '.cpu.isa | split(",") | sort | join(",")' "$TMP/i.json")
"$PAGEHOP" list --format json >"$TMP/l.json" 2>"$TMP/err" || fail "list: $(cat "$TMP/err")"
expect "info's ISAs are those list says run here" "$info_isa" \
	"$(jq -r '[.stream_kernels[] | select(.runs_here) | .isa] | unique | join(",")' "$TMP/l.json")"
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
want=scalar
case $flags in *" sse2 "*) want="$want sse2" ;; esac
case $flags in *" avx2 "*" fma "* | *" fma "*" avx2 "*) want="$want avx2" ;; esac
case "$want $flags" in *avx2*" avx512f "*) want="$want avx512" ;; esac
expect "info's ISAs agree with /proc/cpuinfo" "$info_isa" "$(echo $want | tr ' ' '\n' | sort | paste -sd,)"
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

# The firmware's SLIT, judged as drivers/acpi/numa/srat.c's slit_valid() does.
# This machine's own table first: its status must match what is there.
if [ -e /sys/firmware/acpi/tables/SLIT ]; then
	[ "$(id -u)" = 0 ] && want='^(accepted|rejected)$' || want='^unreadable$'
else
	want='^absent$'
fi
jq -r .firmware_slit.status "$TMP/i.json" | grep -Eq "$want" &&
	pass "this machine's SLIT: $(jq -r .firmware_slit.status "$TMP/i.json")" ||
	fail "this machine's SLIT: status $(jq -r .firmware_slit.status "$TMP/i.json"), want $want"
# slit_bin FILE E00 E01 E10 E11: a 2-locality SLIT (QEMU's header) with those entries.
slit_bin() {
	printf 'SLIT\x30\x00\x00\x00\x01\x2cBOCHS BXPCSLIT\x01\x00\x00\x00BXPC\x01\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00'"\\x$2\\x$3\\x$4\\x$5" >"$1"
}
# info_case NAME E00 E01 E10 E11 STATUS [RULE FROM TO VALUE]
info_case() {
	local name=$1 f=$TMP/$1.slit
	slit_bin "$f" "$2" "$3" "$4" "$5"
	"$PAGEHOP" info --slit-table "$f" --format json >"$TMP/$name.json" 2>"$TMP/err"
	expect "--slit-table $name: exit 0" "$?" 0
	expect "--slit-table $name: status" "$(jq -r .firmware_slit.status "$TMP/$name.json")" "$6"
	expect "--slit-table $name: localities" "$(jq -r .firmware_slit.localities "$TMP/$name.json")" 2
	if [ "$6" = accepted ]; then
		expect "--slit-table $name: Linux uses it" "$(jq -r '.firmware_slit.linux_uses | startswith("this table")' "$TMP/$name.json")" true
		return
	fi
	expect "--slit-table $name: rule" "$(jq -r .firmware_slit.rule "$TMP/$name.json")" "$7"
	expect "--slit-table $name: entry" "$(jq -r '"\(.firmware_slit.from_locality)>\(.firmware_slit.to_locality)=\(.firmware_slit.value)"' "$TMP/$name.json")" "$8>$9=${10}"
	expect "--slit-table $name: what Linux uses" "$(jq -r .firmware_slit.linux_uses "$TMP/$name.json")" \
		"its default distances: 10 local, 20 remote"
	jq -r .firmware_slit.why "$TMP/$name.json" | grep -q "^Linux ignores this SLIT (drivers/acpi/numa/srat.c, slit_valid()): the entry from locality $8 to locality $9 is ${10}, " &&
		pass "--slit-table $name: why" || fail "--slit-table $name: why: $(jq -r .firmware_slit.why "$TMP/$name.json")"
	jq -r '.notes[]' "$TMP/$name.json" | grep -q "^the SLIT of $f: Linux ignores this SLIT" &&
		pass "--slit-table $name: a note too" || fail "--slit-table $name: no note"
}
info_case qemu 0a 15 15 0a accepted
info_case unreachable 0a ff ff 0a accepted
info_case local-11 0a 15 15 0b rejected local_not_10 1 1 11
info_case remote-10 0a 0a 0a 0a rejected remote_not_above_10 0 1 10
info_case remote-5 0a 05 15 0a rejected remote_not_above_10 0 1 5
info_case zeros 00 00 00 00 rejected local_not_10 0 0 0
"$PAGEHOP" info --slit-table "$TMP/remote-10.slit" >"$TMP/t10" 2>&1
grep -q '^  status  *rejected$' "$TMP/t10" && grep -q '^  rule  *remote_not_above_10$' "$TMP/t10" &&
	pass "--slit-table, table format: status and rule" || fail "--slit-table, table format: $(sed -n '/firmware SLIT/,/^$/p' "$TMP/t10")"
"$PAGEHOP" info --slit-table "$TMP/remote-10.slit" --format csv >"$TMP/c10" 2>&1
grep -q '^status,rejected$' "$TMP/c10" && grep -q '^from_locality,0$' "$TMP/c10" && grep -q '^to_locality,1$' "$TMP/c10" &&
	pass "--slit-table, CSV format: status and entry" || fail "--slit-table, CSV format: $(grep -A12 'section: firmware_slit' "$TMP/c10")"
head -c 40 "$TMP/qemu.slit" >"$TMP/short.slit"
usage_error "info --slit-table truncated" info --slit-table "$TMP/short.slit"
usage_error "info --slit-table missing" info --slit-table "$TMP/none.slit"
usage_error "info --slit-table a directory" info --slit-table "$TMP"

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
