# SPDX-License-Identifier: GPL-2.0-only
# test_asan.sh - every command, briefly, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/asan, made by 'make unit-asan'): no
# memory error, undefined behaviour or leak.
. "$(dirname "$0")/lib.sh"
asan=$PAGEHOP_ROOT/build/asan/pagehop
[ -x "$asan" ] || skip_test "build/asan/pagehop not built (make unit-asan builds it)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
while read -r args; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	(cd "$PAGEHOP_ROOT" && "$asan" $args) >/dev/null 2>"$TMP/err"
	rc=$?
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error' "$TMP/err"; then
		fail "$args: $(grep -m3 -E 'ERROR|runtime error|SUMMARY' "$TMP/err")"
	elif [ $rc -gt 3 ]; then
		# 0-3 are verdicts and usage errors; a sanitizer abort or a crash is not.
		fail "$args: exit $rc: $(tail -n 2 "$TMP/err")"
	else
		pass "$args (exit $rc)"
	fi
done <<'LIST'
info --format json
list --format csv
chase --size 8M --time 0.1 --pattern random,tlb:64K,seq --chains 2
stream --size 16M --time 0.1 --kernel copy,triad,read --nt
matrix --size 8M --time 0.1 --format json
pages --page-sizes 4k --min 16K --max 64K --time 0.05 --format json
prefetch --size 8M --time 0.05 --patterns seq,random
pages --page-size 2m
pages --page-sizes 4k --thp --min 16K --max 64K --time 0.05 --format csv
prefetch --size 64K --time 0.05 --patterns page:1G
slit
slit --input tests/data/shared/amd-6220-4node.matrix.csv --slit tests/data/shared/amd-6220-4node.numactl.txt --format json
slit --input tests/data/shared/intel-e5-2643-2node.matrix.csv --slit tests/data/slit/linux-zeros.numactl.txt --format csv
slit --input tests/data/slit/flat-4node.matrix.csv --slit tests/data/slit/slit-10-16-22.numactl.txt --hmat-table tests/data/hmat/qemu-4node-odd.hmat --format json
slit --input tests/data/shared/intel-e5-2643-2node.matrix.csv --slit tests/data/shared/intel-e5-2643-2node.numactl.txt
info --slit-table tests/data/slit/linux-zeros.numactl.txt
baseline --repeats 2 --time 0.1 --histogram --format json
check --budget 2 --histogram --format json
chase --pattern bogus
stream --membind 9
LIST
finish
