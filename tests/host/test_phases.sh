# SPDX-License-Identifier: GPL-2.0-only
# test_phases.sh - every document says where the run's time went: the
# "time" block of JSON (setup phases, warm-up, measurement, total), one
# "time:" line in the table and in the CSV header.  Each phase exists and is
# non-negative, the setup is the sum of its phases, the phases sum to at most
# the total, and the total to at most the wall time the shell measured
# around the command.  No timing bound beyond that: the host is shared.
. "$(dirname "$0")/lib.sh"

phases='["alloc_s","touch_s","verify_s","chain_s","arrays_s","warmup_s","measure_s","check_s"]'

# check_time DESC FILE WALL_S: the time block of FILE against WALL_S.
check_time() {
	local desc=$1 f=$2 wall=$3 r
	r=$(jq -r --argjson ks "$phases" '
		.time as $t
		| if $t == null then "no time block"
		  elif ([$ks[], "setup_s", "total_s"] | map(select($t[.] == null)) | length) > 0
		  then "missing " + ([$ks[], "setup_s", "total_s"] | map(select($t[.] == null)) | join(","))
		  elif ([$ks[] | $t[.]] + [$t.setup_s, $t.total_s] | map(select(. < 0)) | length) > 0
		  then "a negative phase"
		  elif (([$ks[0:5][] | $t[.]] | add) - $t.setup_s | fabs) > 0.00001
		  then "setup_s \($t.setup_s) is not the sum of its phases"
		  elif ([$ks[] | $t[.]] | add) > $t.total_s + 0.001
		  then "phases sum to \([$ks[] | $t[.]] | add), more than total_s \($t.total_s)"
		  else "ok \($t.total_s) \($t.setup_s) \($t.chain_s) \($t.measure_s)" end' "$f")
	case $r in
	ok*)
		set -- $r
		awk -v t="$2" -v w="$wall" 'BEGIN { exit !(t <= w + 0.001) }' &&
			pass "$desc: total ${2}s (setup $3, chain $4, measure $5) within the ${wall}s the shell saw" ||
			fail "$desc: total_s $2 is more than the ${wall}s wall time around the command"
		;;
	*) fail "$desc: $r" ;;
	esac
}

# run_timed OUT ARGS...: run pagehop, its wall seconds in $WALL.
run_timed() {
	local out=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$PAGEHOP" "$@" >"$out" 2>"$TMP/err" || fail "$*: $(cat "$TMP/err")"
	t1=$(date +%s.%N)
	WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}

run_timed "$TMP/c.json" chase --size 16M --time 0.2 --format json
check_time "chase" "$TMP/c.json" "$WALL"
# A chase builds a chain and measures: those phases are not empty.
expect "chase: chain built and measured" \
	"$(jq -r '.time | (.chain_s > 0) and (.measure_s > 0) and (.touch_s + .alloc_s > 0)' "$TMP/c.json")" true
run_timed "$TMP/s.json" stream --size 32M --time 0.2 --kernel triad --format json
check_time "stream" "$TMP/s.json" "$WALL"
expect "stream: arrays written, no chain" \
	"$(jq -r '.time | (.arrays_s > 0) and (.chain_s == 0)' "$TMP/s.json")" true
# The arrays' check after the figure is timed apart from their writing:
# a matrix writes them once per memory node and checks them once per cell.
expect "stream: arrays checked after the figure, timed on their own" \
	"$(jq -r '.time.check_s > 0' "$TMP/s.json")" true
run_timed "$TMP/i.json" info --format json
check_time "info" "$TMP/i.json" "$WALL"
expect "info: nothing set up or measured" \
	"$(jq -r '.time | .setup_s + .warmup_s + .measure_s' "$TMP/i.json")" 0
if [ "$(nproc)" -ge 2 ]; then
	# c2c lays its line out through homed.c and sizes its blocks first:
	# those phases are timed too, not left at zero.
	run_timed "$TMP/p.json" c2c --cpus 0,1 --time 0.1 --format json
	check_time "c2c" "$TMP/p.json" "$WALL"
	expect "c2c: line laid out, read back, blocks sized and measured" \
		"$(jq -r '.time | (.alloc_s > 0) and (.verify_s > 0) and (.warmup_s > 0) and (.measure_s > 0)' "$TMP/p.json")" true
fi

# The table: one line, after everything else; the CSV: the second line.
"$PAGEHOP" chase --size 16M --time 0.1 >"$TMP/c.txt" 2>"$TMP/err" || fail "table: $(cat "$TMP/err")"
expect "table: one time line" "$(grep -c '^time: setup ' "$TMP/c.txt")" 1
# It ends the table, wrapped to 100 columns: its continuation lines are
# indented under its first word's end, and nothing else follows.
expect "table: at the end, wrapped to 100 columns" \
	"$(awk '/^time: setup /{f=1} f && !/^time: setup / && !/^      [a-z]/{bad++} f && length > 100 {bad++} END {print f + 0, bad + 0}' "$TMP/c.txt")" "1 0"
"$PAGEHOP" chase --size 16M --time 0.1 --format csv >"$TMP/c.csv" 2>"$TMP/err" || fail "csv: $(cat "$TMP/err")"
expect "csv: the second line" "$(sed -n 2p "$TMP/c.csv" | cut -c1-13)" "# time: setup"
finish
