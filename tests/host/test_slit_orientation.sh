# SPDX-License-Identifier: GPL-2.0-only
# test_slit_orientation.sh - published tables as they are printed: rows =
# memory node, tab-separated, a "MEM CPU" corner (tests/data/shared/
# *.as-printed.tsv, typed from the source's tables), a CSV with rows =
# memory node declared by a "# rows:" or "# orientation:" line, and
# --orientation mem-rows on an undeclared one, each give the verdict and
# exit code of the transposed CSV (rows = CPU node).  Offline.
. "$(dirname "$0")/lib.sh"
ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
SH=$ROOT/tests/data/shared

# The verdict line and exit code of slit --input ARGS.
verdict() {
	"$PAGEHOP" slit "$@" --format json >"$TMP/v.json" 2>"$TMP/err"
	echo "exit=$? $(jq -c '[.verdict.status, .verdict.measured_levels, .measured_distances.values]' "$TMP/v.json" 2>/dev/null)"
}
for m in intel-e5-2643-2node amd-6220-4node; do
	want=$(verdict --input "$SH/$m.matrix.csv" --slit "$SH/$m.numactl.txt")
	case $want in exit=[013]\ \[\"*) pass "$m: the CSV's verdict: $want" ;; *) fail "$m: the CSV: $want $(cat "$TMP/err")" ;; esac
	expect "$m: as printed (MEM CPU corner, tabs)" \
		"$(verdict --input "$SH/$m.as-printed.tsv" --slit "$SH/$m.numactl.txt")" "$want"
	# The same table as CSV, rows = memory node: told by the option...
	{ echo "# pagehop matrix"; echo "# metric: bandwidth_GBps"; sed '1s/^MEM CPU/node/' "$SH/$m.as-printed.tsv" | tr '\t' ','; } \
		>"$TMP/$m.mem.csv"
	expect "$m: --orientation mem-rows" \
		"$(verdict --input "$TMP/$m.mem.csv" --orientation mem-rows --slit "$SH/$m.numactl.txt")" "$want"
	# ...or by the file.
	sed '2a # orientation: mem-rows' "$TMP/$m.mem.csv" >"$TMP/$m.o.csv"
	expect "$m: '# orientation: mem-rows' line" \
		"$(verdict --input "$TMP/$m.o.csv" --slit "$SH/$m.numactl.txt")" "$want"
	sed '2a # rows: memory node, columns: cpu node' "$TMP/$m.mem.csv" >"$TMP/$m.r.csv"
	expect "$m: '# rows: memory node' line" \
		"$(verdict --input "$TMP/$m.r.csv" --slit "$SH/$m.numactl.txt")" "$want"
	expect "$m: --orientation cpu-rows on the CPU-rows CSV" \
		"$(verdict --input "$SH/$m.matrix.csv" --orientation cpu-rows --slit "$SH/$m.numactl.txt")" "$want"
done
# Read the other way round, the Intel table gets another verdict (0 becomes 3).
m=intel-e5-2643-2node
got=$(verdict --input "$TMP/$m.mem.csv" --slit "$SH/$m.numactl.txt")
[ "${got%% *}" != "${want%% *}" ] && pass "undeclared, the printed table is misread: $got" ||
	fail "the orientation should matter here: $got against $want"
usage_error "--orientation against the file's own" slit --input "$SH/$m.as-printed.tsv" --orientation cpu-rows
usage_error "--orientation against a '# rows:' line" slit --input "$SH/$m.matrix.csv" --orientation mem-rows
usage_error "unknown orientation" slit --input "$SH/$m.matrix.csv" --orientation sideways
usage_error "--orientation without --input" slit --orientation mem-rows
finish
