# SPDX-License-Identifier: GPL-2.0-only
# test_parse_bad.sh - every hand-made bad input of tests/data/bad through the
# real "pagehop slit", and files that are no files (a FIFO, a directory, a
# device, 20 MB, standard input): exit 2, one line on stderr naming what is
# wrong, nothing on stdout, nothing blocked.  Again under ASan+UBSan
# (build/asan/pagehop, made by 'make unit-asan') when it is built: no
# sanitizer report.  The README's table says what each file's message holds;
# saved baselines (*.baseline.json) go through "pagehop compare", which reads them,
# saved documents of any command (*.report.json) through "pagehop report".
. "$(dirname "$0")/lib.sh"

ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BAD=$ROOT/tests/data/bad
GOOD_CSV=$ROOT/tests/data/shared/intel-e5-2643-2node.matrix.csv
GOOD_SLIT=$ROOT/tests/data/shared/intel-e5-2643-2node.numactl.txt
ASAN=$ROOT/build/asan/pagehop
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
bins=("$PAGEHOP")
if [ -x "$ASAN" ]; then
	bins+=("$ASAN")
else
	echo "note: $ASAN not built (make unit-asan builds it): the plain binary only"
fi

# refused DESC WANT ARGS...: with every binary, exit 2 within 10 s, nothing
# on stdout, one line on stderr holding WANT, no sanitizer report.  Input
# on standard input comes from $stdin (default /dev/null).
refused() {
	local desc=$1 want=$2 bin rc
	shift 2
	for bin in "${bins[@]}"; do
		timeout 10 "$bin" "$@" <"${stdin:-/dev/null}" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error' "$TMP/err"; then
			fail "$desc ($bin): $(grep -m3 -E 'ERROR|runtime error|SUMMARY' "$TMP/err")"
		elif [ $rc -ne 2 ] || [ -s "$TMP/out" ] || [ "$(wc -l <"$TMP/err")" -ne 1 ]; then
			fail "$desc ($bin): exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr: $(head -c 400 "$TMP/err")"
		elif ! grep -qF -- "$want" "$TMP/err"; then
			fail "$desc ($bin): '$(cat "$TMP/err")' does not hold '$want'"
		else
			pass "$desc: $(cat "$TMP/err")"
		fi
	done
}

# ---- the hand-made files, as the README's table lists them ----
awk -F'|' '/^\| [a-z0-9].*\.(csv|json|txt|hmat) \|/ {
	f = $2; w = $4
	gsub(/^ +| +$/, "", f); gsub(/^ +`|` +$/, "", w)
	print f "\t" w
}' "$BAD/README.md" >"$TMP/table"
[ -s "$TMP/table" ] || fail "no table in $BAD/README.md"
n=0
while IFS=$'\t' read -r f want; do
	n=$((n + 1))
	[ -f "$BAD/$f" ] || { fail "$f: listed in the README, not in $BAD"; continue; }
	# "FILE:LINE: ..." for text, "FILE: json.path: ..." for JSON content.
	case $want in
	:*) want="$BAD/$f$want" ;;
	*) want="$BAD/$f: $want" ;;
	esac
	case $f in
	*.numactl.txt) refused "$f" "$want" slit --input "$GOOD_CSV" --slit "$BAD/$f" ;;
	*.hmat) refused "$f" "--hmat-table $want" slit --input "$GOOD_CSV" --hmat-table "$BAD/$f" ;;
	*.baseline.json) refused "$f" "$want" compare "$BAD/$f" ;;
	*.report.json)
		rm -f "$TMP/r.html"
		refused "$f" "$want" report -o "$TMP/r.html" "$BAD/$f"
		[ ! -e "$TMP/r.html" ] || fail "$f: a page written after the refusal"
		;;
	*) refused "$f" "$want" slit --input "$BAD/$f" ;;
	esac
done <"$TMP/table"
for f in "$BAD"/*; do
	b=$(basename "$f")
	[ "$b" = README.md ] || cut -f1 "$TMP/table" | grep -qxF "$b" || fail "$b: in $BAD but not in its README"
done
[ "$n" -ge 30 ] && pass "$n hand-made bad files" || fail "only $n hand-made bad files in the README"

# ---- what is not a regular file, refused without blocking ----
mkfifo "$TMP/fifo"
refused "--input FIFO" "--input $TMP/fifo: a FIFO; expected a regular file, or - for standard input" \
	slit --input "$TMP/fifo"
refused "--slit FIFO" "--slit $TMP/fifo: a FIFO" slit --input "$GOOD_CSV" --slit "$TMP/fifo"
refused "--slit-table FIFO" "--slit-table $TMP/fifo: a FIFO; expected a regular file" \
	slit --input "$GOOD_CSV" --slit "$GOOD_SLIT" --emit-acpi "$TMP/x.asl" --slit-table "$TMP/fifo"
[ ! -e "$TMP/x.asl" ] && pass "nothing written after a refused --slit-table" || fail "$TMP/x.asl written"
refused "--hmat-table FIFO" "--hmat-table $TMP/fifo: a FIFO; expected a regular file" \
	slit --input "$GOOD_CSV" --hmat-table "$TMP/fifo"
refused "--hmat-table directory" "--hmat-table $TMP: a directory; expected a regular file" \
	slit --input "$GOOD_CSV" --hmat-table "$TMP"
stdin=$GOOD_CSV refused "--input - and --hmat-table - together" "standard input can be only one of them" \
	slit --input - --hmat-table -
refused "--input directory" "--input $TMP: a directory" slit --input "$TMP"
refused "--input character device" "--input /dev/zero: a character device" slit --input /dev/zero
# A symlink to a FIFO is a FIFO.
ln -s "$TMP/fifo" "$TMP/link"
refused "--input symlink to a FIFO" "--input $TMP/link: a FIFO" slit --input "$TMP/link"

# ---- the 16 MiB cap: by size, and by what is read from a pipe ----
truncate -s 20000000 "$TMP/20MB.csv"
refused "--input 20 MB" "--input $TMP/20MB.csv: 20000000 bytes; expected a file of at most 16 MiB" \
	slit --input "$TMP/20MB.csv"
{ cat "$GOOD_CSV"; yes '# a comment line to make the file larger than the cap' | head -c 20000000; } >"$TMP/20MB-text.csv"
stdin=$TMP/20MB-text.csv refused "--input - of 20 MB, a regular file" \
	"--input -: $(stat -c %s "$TMP/20MB-text.csv") bytes; expected a file of at most 16 MiB" slit --input -
for bin in "${bins[@]}"; do
	yes '# a comment line to make the input larger than the cap' | head -c 20000000 |
		timeout 20 "$bin" slit --input - >"$TMP/out" 2>"$TMP/err"
	rc=${PIPESTATUS[2]}
	if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -qF -- "--input -: more than 16 MiB" "$TMP/err"; then
		pass "--input - of 20 MB from a pipe ($bin): $(cat "$TMP/err")"
	else
		fail "--input - of 20 MB from a pipe ($bin): exit $rc: $(head -c 300 "$TMP/err")"
	fi
done

# ---- standard input ----
stdin=/dev/null refused "--input - and --slit - together" "standard input can be only one of them" \
	slit --input - --slit -
"$PAGEHOP" slit --input - --format json <"$ROOT/tests/data/slit/matrix-2node.json" >"$TMP/s.json" 2>"$TMP/err"
expect "--input - of the 2-node JSON: exit 3 as from the file" "$?" 3
expect "--input -: named <stdin>" "$(jq -r .verdict.input "$TMP/s.json")" "<stdin>"
"$PAGEHOP" slit --input "$GOOD_CSV" --slit - --format json <"$GOOD_SLIT" >"$TMP/s.json" 2>"$TMP/err"
expect "--slit - : exit 0 as from the file" "$?" 0
expect "--slit -: named <stdin>" "$(jq -r .verdict.slit "$TMP/s.json")" "<stdin> (numactl --hardware)"
finish
