# SPDX-License-Identifier: GPL-2.0-only
# test_exit_codes.sh - what a command leaves behind when it fails: the exit
# code, stdout (nothing, unless something was measured), a --save file
# (replaced only by a document holding a measured cell), verification
# failures reported as such, output paths checked before measuring, write
# errors on stdout reported, and no leak under LeakSanitizer.
#
# Failures on demand: --size 1024T cannot be had on any node (exit 4); an
# LD_PRELOAD of tests/host/fault_move_pages.c makes the read-back find the
# memory on node 1, before measuring or after it.
. "$(dirname "$0")/lib.sh"

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
NOMEM=(matrix --size 1024T --figures latency --time 0.1 --format json)

# ---- a matrix whose first cell cannot be had ----
printf '{"kept": true}\n' >"$TMP/good.json"
cp "$TMP/good.json" "$TMP/before.json"
"$PAGEHOP" "${NOMEM[@]}" --save "$TMP/good.json" >"$TMP/out" 2>"$TMP/err"
expect "no memory for the first cell: exit 4" "$?" 4
expect "  nothing on stdout" "$(wc -c <"$TMP/out")" 0
cmp -s "$TMP/good.json" "$TMP/before.json" && pass "  --save: the existing file is left as it was" ||
	fail "  --save replaced the existing file: $(head -c 200 "$TMP/good.json")"
grep -q 'left as it was' "$TMP/err" && pass "  and says so: $(grep 'left as it was' "$TMP/err")" ||
	fail "  no word on the --save file: $(cat "$TMP/err")"
"$PAGEHOP" "${NOMEM[@]}" --save "$TMP/new.json" >/dev/null 2>&1
[ -e "$TMP/new.json" ] && fail "  --save made a file with no measured cell" || pass "  --save makes no empty file"

asan=$PAGEHOP_ROOT/build/asan/pagehop
if [ -x "$asan" ]; then
	cp "$TMP/before.json" "$TMP/good.json"
	ASAN_OPTIONS=detect_leaks=1 "$asan" "${NOMEM[@]}" --save "$TMP/good.json" >/dev/null 2>"$TMP/err"
	grep -q 'LeakSanitizer' "$TMP/err" && fail "  a leak when a cell fails: $(grep -m1 -A4 'Direct leak' "$TMP/err")" ||
		pass "  no leak under LeakSanitizer when a cell fails"
else
	echo "note: build/asan/pagehop not built (make unit-asan): the leak check did not run"
fi

# ---- verification failures, through the LD_PRELOAD read-back fault ----
if [ -e /dev/pagehop ]; then
	echo "note: pagehop.ko is loaded: the read-back is the module's, the move_pages fault does not apply"
elif ! cc -shared -fPIC -o "$TMP/fault.so" "$PAGEHOP_ROOT/tests/host/fault_move_pages.c" -ldl 2>"$TMP/err"; then
	echo "note: cannot build the fault library: $(cat "$TMP/err")"
else
	LAT=(matrix --size 16M --figures latency --time 0.1 --format json)
	cp "$TMP/before.json" "$TMP/good.json"
	PAGEHOP_FAULT_AFTER=0 LD_PRELOAD=$TMP/fault.so "$PAGEHOP" "${LAT[@]}" --save "$TMP/good.json" \
		>"$TMP/out" 2>"$TMP/err"
	expect "memory elsewhere before measuring: exit 1" "$?" 1
	expect "  nothing on stdout" "$(wc -c <"$TMP/out")" 0
	cmp -s "$TMP/good.json" "$TMP/before.json" && pass "  --save: the existing file is left as it was" ||
		fail "  --save replaced the existing file"
	PAGEHOP_FAULT_AFTER=1 LD_PRELOAD=$TMP/fault.so "$PAGEHOP" "${LAT[@]}" >"$TMP/out" 2>"$TMP/err"
	expect "memory moved while measured: exit 1" "$?" 1
	expect "  the cell is marked not verified" "$(jq -c '[.cells[].verified]' "$TMP/out")" '[false]'
	expect "  the matrix is not all verified" "$(jq -r '.matrix.all_verified' "$TMP/out")" false
fi

# ---- pages that measured nothing ----
free1g=$(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages 2>/dev/null || echo 0)
if [ -e /dev/pagehop ] || [ "$free1g" -gt 0 ]; then
	echo "note: 1 GiB pages can be had here: the 'pages measured nothing' check did not run"
else
	"$PAGEHOP" pages --page-sizes 1g --min 1G --max 1G --time 0.1 >"$TMP/out" 2>"$TMP/err"
	expect "pages with no page size to measure: exit 4" "$?" 4
	expect "  nothing on stdout" "$(wc -c <"$TMP/out")" 0
	grep -q 'nothing measured' "$TMP/err" && pass "  says so: $(grep 'nothing measured' "$TMP/err")" ||
		fail "  stderr: $(cat "$TMP/err")"
fi

# ---- slit --save on one node ----
if [ "$nodes" -eq 1 ]; then
	"$PAGEHOP" slit --save "$TMP/slit.json" --format json >"$TMP/out" 2>"$TMP/err"
	expect "slit --save on one node: exit 4 (nothing measured to save)" "$?" 4
	grep -q -- "--save $TMP/slit.json: not written: this machine has a single NUMA node" "$TMP/err" &&
		pass "  says why nothing was written: $(cat "$TMP/err")" ||
		fail "  --save not written without a word: $(cat "$TMP/err")"
	[ -e "$TMP/slit.json" ] && fail "  a file was written" || pass "  no file written"
fi

# ---- output paths are checked before measuring ----
# Each would measure for seconds first: two or three figures of --time 3.
SLOW=(--size 64M --time 3)
for cmd in "matrix --size 64M --figures latency,read" "pages --page-sizes 4k --min 64M --max 64M"; do
	# shellcheck disable=SC2086
	for bad in "$TMP/none/x.json" /dev/null /dev/stdout "$TMP"; do
		start=$(date +%s)
		usage_error "$cmd --save $bad" $cmd --time 3 --save "$bad"
		took=$(($(date +%s) - start))
		[ "$took" -le 2 ] || fail "  found only after ${took}s"
	done
done
usage_error "slit --save into a missing directory" slit "${SLOW[@]}" --save "$TMP/none/x.json"
SH=$PAGEHOP_ROOT/tests/data/shared
AMD=(--input "$SH/amd-6220-4node.matrix.csv" --slit "$SH/amd-6220-4node.numactl.txt" --oem-id A --oem-table-id B)
usage_error "slit --emit-acpi /dev/stdout" slit "${AMD[@]}" --emit-acpi /dev/stdout
usage_error "slit --emit-acpi onto a FIFO" slit "${AMD[@]}" --emit-acpi "$(mkfifo "$TMP/fifo" && echo "$TMP/fifo")"
"$PAGEHOP" slit "${AMD[@]}" --emit-acpi - --format json >"$TMP/out" 2>"$TMP/err"
grep -q 'Signature : "SLIT"' "$TMP/out" && pass "--emit-acpi - writes the source on stdout" ||
	fail "--emit-acpi -: $(cat "$TMP/err")"

# ---- write errors on stdout ----
if [ -w /dev/full ]; then
	for args in "list" "info" "list --help" "help" "--version" "slit ${AMD[*]:0:4} --format csv"; do
		# shellcheck disable=SC2086
		"$PAGEHOP" $args >/dev/full 2>"$TMP/err"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'standard output' "$TMP/err"; then
			pass "$args >/dev/full: exit $rc, $(cat "$TMP/err")"
		else
			fail "$args >/dev/full: exit $rc, stderr: $(cat "$TMP/err")"
		fi
	done
	# A verdict that did not reach its reader is no verdict: slit's 3
	# (magnitudes) becomes 1, and check's any state UNKNOWN.
	INTEL=(--input "$SH/intel-e5-2643-2node.matrix.csv" --slit "$SH/intel-e5-2643-2node.numactl.txt" --tolerance 5)
	"$PAGEHOP" slit "${INTEL[@]}" >/dev/null 2>&1
	rc=$?
	"$PAGEHOP" slit "${INTEL[@]}" >/dev/full 2>/dev/null
	full=$?
	[ $rc -eq 3 ] && [ $full -eq 1 ] && pass "slit's verdict 3 with stdout full: exit 1" ||
		fail "slit's verdict $rc with stdout full: exit $full, not 1"
	"$PAGEHOP" check --help >/dev/full 2>/dev/null
	full=$?
	[ $full -eq 3 ] && pass "check --help with stdout full: exit 3 (UNKNOWN)" ||
		fail "check --help with stdout full: exit $full, not 3"
fi
finish
