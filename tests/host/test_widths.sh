# SPDX-License-Identifier: GPL-2.0-only
# test_widths.sh - the table a person reads keeps to 100 columns: every
# measuring command, with short settings, prints no line longer than that
# by default; --verbose prints the detail columns (a minimum, samples,
# cycles, whether the CI target was met), whichever side of --format it
# stands; CSV and JSON always hold them.  Read back by a second path: the
# verbose table's columns by awk against the JSON document the same run
# saved (pages --save), and the widths by awk, not by the renderer.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: the measuring commands read back where their memory is (pagemap)"
SH=${PAGEHOP_ROOT:-$(dirname "$0")/../..}/../shared/data
[ -d "$SH" ] || SH=/work/shared/data

# widest FILE [SKIP]: the longest line of FILE, its first SKIP lines left out.
widest() { tail -n +$((${2:-0} + 1)) "$1" | awk '{ if (length > m) m = length } END { print m + 0 }'; }
# header_of FILE TITLE: the column names of the table under "TITLE:" (one header line: --verbose).
header_of() { awk -v t="$2:" '$0 == t { getline; print; exit }' "$1"; }

# fits NAME [SKIP] -- ARGS: ARGS' default table fits 100 columns.  A
# measuring command exits 0 or 1 (a figure outside its expectation); with
# MAXRC=3 in its environment, any of the monitoring plugin's states (a
# width test judges the layout, not the verdict of a busy host).
fits() {
	local name=$1 skip=0 rc w
	shift
	[ "$1" = "--" ] || { skip=$1; shift; }
	shift
	"$PAGEHOP" "$@" >"$TMP/$name.txt" 2>"$TMP/$name.err"
	rc=$?
	if [ $rc -eq 4 ]; then
		pass "$name: not here (exit 4): $(tail -n 1 "$TMP/$name.err")"
		return 1
	fi
	[ $rc -le "${MAXRC:-1}" ] && [ -s "$TMP/$name.txt" ] ||
		{ fail "$name: exit $rc: $(head -c 300 "$TMP/$name.txt") $(tail -n 3 "$TMP/$name.err")"; return 1; }
	w=$(widest "$TMP/$name.txt" "$skip")
	[ "$w" -le 100 ] && pass "$name: longest line $w columns" ||
		fail "$name: a line of $w columns: $(awk 'length > 100' "$TMP/$name.txt" | head -n 2)"
	return 0
}

# detail NAME KEY TITLE COLS -- ARGS: the default table under TITLE (fits
# NAME's) lacks COLS, the verbose one (--verbose before and after --format
# table) has them, and so do CSV and JSON (every record of table KEY).
detail() {
	local name=$1 key=$2 title=$3 cols=$4 c
	shift 5
	"$PAGEHOP" "$@" --verbose >"$TMP/$name.v" 2>"$TMP/err" || [ $? -le 1 ] ||
		{ fail "$name --verbose: $(tail -n 2 "$TMP/err")"; return; }
	"$PAGEHOP" "$@" --verbose --format table >"$TMP/$name.vt" 2>"$TMP/err" || [ $? -le 1 ] ||
		{ fail "$name --verbose --format table: $(tail -n 2 "$TMP/err")"; return; }
	"$PAGEHOP" "$@" --format csv --verbose >"$TMP/$name.csv" 2>"$TMP/err" || [ $? -le 1 ] ||
		{ fail "$name --format csv --verbose: $(tail -n 2 "$TMP/err")"; return; }
	"$PAGEHOP" "$@" --format json >"$TMP/$name.json" 2>"$TMP/err" || [ $? -le 1 ] ||
		{ fail "$name --format json: $(tail -n 2 "$TMP/err")"; return; }
	for c in $cols; do
		awk -v t="$title:" -v c="$c" '$0 == t { on = 1; next } on && /^$/ { exit }
			on { for (i = 1; i <= NF; i++) if ($i == c) found = 1 } END { exit !found }' \
			"$TMP/$name.txt" && fail "$name: the default table shows detail column $c" ||
			pass "$name: the default table leaves out $c"
		for v in v vt; do
			header_of "$TMP/$name.$v" "$title" | tr -s ' ' '\n' | grep -qx "$c" &&
				pass "$name: the verbose table ($v) has $c" ||
				fail "$name: the verbose table ($v) lacks $c: $(header_of "$TMP/$name.$v" "$title")"
		done
		awk -v k="# table: $key" -v c="$c" '$0 == k { getline; n = split($0, h, ","); for (i = 1; i <= n; i++) if (h[i] == c) f = 1; exit }
			END { exit !f }' "$TMP/$name.csv" && pass "$name: CSV has $c (after --verbose too)" ||
			fail "$name: CSV lacks $c"
		jq -e --arg k "$key" --arg c "$c" '.[$k] | length > 0 and all(has($c))' "$TMP/$name.json" >/dev/null &&
			pass "$name: JSON has $c in every record" || fail "$name: JSON lacks $c"
	done
	expect "$name: --verbose before or after --format table prints the same columns" \
		"$(header_of "$TMP/$name.vt" "$title")" "$(header_of "$TMP/$name.v" "$title")"
}

# ---- every measuring command: the default table within 100 columns ----
fits chase -- chase --size 16M --time 0.1 &&
	detail chase chase "latency per load" "lat_min_ns samples tsc_cycles ci_met ci_pct backend clock" -- \
		chase --size 16M --time 0.1
fits stream -- stream --kernel copy --size 16M --time 0.1 --threads 1 &&
	detail stream stream "bandwidth" "bw_best_GBps samples ci_met bw_wa_GBps" -- \
		stream --kernel copy --size 16M --time 0.1 --threads 1
fits prefetch -- prefetch --size 16M --time 0.05 --patterns seq,random --no-control &&
	detail prefetch latency "latency per access pattern" "lat_min_ns samples" -- \
		prefetch --size 16M --time 0.05 --patterns seq,random --no-control
fits scale -- scale --threads-list 1,2 --size-per-thread 4M --time 0.1 &&
	detail scale scale "bandwidth against threads" "bw_best_GBps samples ci_met" -- \
		scale --threads-list 1,2 --size-per-thread 4M --time 0.1
fits goaround -- goaround --threads 2 --turns 1 --size-per-thread 4M --time 0.1 &&
	detail goaround goaround "every thread at once on the block of thread (t + turn) mod T" "bw_best_GBps samples" -- \
		goaround --threads 2 --turns 1 --size-per-thread 4M --time 0.1
fits c2c -- c2c --cpus 0-1 --time 0.1
fits hops -- hops --physcpubind 0 --min 64K --max 128K --kernel read --time 0.1 --ci 50
fits matrix -- matrix --size 16M --time 0.1
fits loaded -- loaded --chaser 0 --loaders 1 --size 16M --loader-size 8M --delays 0 --time 0.1
fits locks -- locks --cpus 0,1 --threads 1,2 --time 0.1
fits survey -- survey
# check's first line is the monitoring plugin's status line with its
# performance data, which the plugin guidelines keep on one line.
fits baseline -- baseline --time 0.01 --save "$TMP/b.json" &&
	MAXRC=3 fits check 1 -- check --baseline "$TMP/b.json" --budget 3
fits info -- info
fits list -- list

# ---- pages: the verbose table and the JSON of the same run agree ----
if fits pages -- pages --page-sizes 4k --max 32K --time 0.05 --ci 50; then
	"$PAGEHOP" pages --page-sizes 4k --max 32K --time 0.05 --ci 50 --verbose --save "$TMP/p.json" \
		>"$TMP/p.v" 2>"$TMP/err" || fail "pages --verbose --save: $(tail -n 2 "$TMP/err")"
	# The verbose sweep, row by row, as "ws_KiB rnd_samples rnd_lat_min_ns", by awk from the header.
	got=$(awk '$0 == "working-set sweep per page size:" { getline; for (i = 1; i <= NF; i++) col[$i] = i; on = 1; next }
		on && /^$/ { exit } on { print $col["ws_KiB"] + 0, $col["rnd_samples"] + 0, $col["rnd_lat_min_ns"] + 0 }' "$TMP/p.v")
	# The same numbers from the JSON, through the same awk conversion: the
	# table writes 1.10 where JSON writes 1.1.
	want=$(jq -r '.pages[] | "\(.ws_KiB) \(.rnd_samples) \(.rnd_lat_min_ns)"' "$TMP/p.json" |
		awk '{ print $1 + 0, $2 + 0, $3 + 0 }')
	[ -n "$got" ] && [ "$got" = "$want" ] && pass "pages: verbose table's samples and minimum are the saved JSON's ($(echo "$got" | wc -l) rows)" ||
		fail "pages: verbose table '$got', JSON '$want'"
	awk '{ if (length > m) m = length } END { exit !(m > 100) }' "$TMP/p.v" &&
		pass "pages: the verbose table keeps each row on one line, wider than 100" ||
		fail "pages: the verbose table fits 100 columns: is it verbose?"
fi

# ---- slit offline: within 100 columns, and no time line of zeros ----
for m in amd-6220-4node intel-e5-2643-2node; do
	if fits "slit-$m" -- slit --input "$SH/$m.matrix.csv" --slit "$SH/$m.numactl.txt"; then
		grep -q '^time:' "$TMP/slit-$m.txt" && fail "slit $m: a time line after an offline analysis" ||
			pass "slit $m: no time line (nothing was measured)"
		"$PAGEHOP" slit --input "$SH/$m.matrix.csv" --slit "$SH/$m.numactl.txt" --format csv >"$TMP/s.csv" 2>/dev/null
		"$PAGEHOP" slit --input "$SH/$m.matrix.csv" --slit "$SH/$m.numactl.txt" --verbose >"$TMP/s.v" 2>/dev/null
		# Every value of the magnitude table, by awk from the verbose table and from the CSV.
		got=$(awk '$0 ~ /^magnitude: / { getline; on = 1; next } on && /^$/ { exit } on { $1 = $1; print }' "$TMP/s.v")
		want=$(awk -F, '$0 == "# table: magnitude" { getline; on = 1; next } on && /^$/ { exit } on { $1 = $1; print }' OFS=' ' "$TMP/s.csv")
		[ -n "$got" ] && [ "$got" = "$want" ] && pass "slit $m: the verbose magnitude table is the CSV's" ||
			fail "slit $m: verbose '$got', CSV '$want'"
	fi
done

finish
