# SPDX-License-Identifier: GPL-2.0-only
# test_tmpdir.sh - temporary files go where $TMPDIR says (or /tmp when it is
# unset or empty), as mktemp(1) puts them: a --plot draws in a private
# directory made there, and a TMPDIR that does not exist is said, naming it,
# rather than passed over for /tmp.
. "$(dirname "$0")/lib.sh"

[ -x /usr/bin/gnuplot ] || skip_test "/usr/bin/gnuplot missing (gnuplot-nox, installed by scripts/install-deps.sh check)"
QUICK=(pages --page-sizes 4k --min 16K --max 64K --time 0.05 --ci 50 --format json)

# A TMPDIR that does not exist: the plot fails and the error names it.
TMPDIR=$TMP/missing "$PAGEHOP" "${QUICK[@]}" --plot "$TMP/a.svg" >/dev/null 2>"$TMP/err"
rc=$?
grep -qF "$TMP/missing" "$TMP/err" && pass "TMPDIR that does not exist: named (exit $rc): $(cat "$TMP/err")" ||
	fail "TMPDIR=$TMP/missing not used: exit $rc, stderr: $(cat "$TMP/err")"
[ -e "$TMP/a.svg" ] && fail "a plot was written although its temporary directory could not be made"

# A TMPDIR that exists: the plot is drawn there and nothing is left behind.
mkdir "$TMP/tmpdir"
TMPDIR=$TMP/tmpdir "$PAGEHOP" "${QUICK[@]}" --plot "$TMP/b.svg" >/dev/null 2>"$TMP/err" ||
	fail "plot with TMPDIR=$TMP/tmpdir: $(cat "$TMP/err")"
grep -q '<svg' "$TMP/b.svg" 2>/dev/null && pass "plot drawn with TMPDIR set" || fail "no plot at $TMP/b.svg"
expect "nothing left in TMPDIR" "$(ls -A "$TMP/tmpdir" | wc -l)" 0

# An empty TMPDIR is /tmp, as for mktemp(1).
TMPDIR= "$PAGEHOP" "${QUICK[@]}" --plot "$TMP/c.svg" >/dev/null 2>"$TMP/err" ||
	fail "plot with TMPDIR empty: $(cat "$TMP/err")"
grep -q '<svg' "$TMP/c.svg" 2>/dev/null && pass "plot drawn with TMPDIR empty" || fail "no plot at $TMP/c.svg"
finish
