# SPDX-License-Identifier: GPL-2.0-only
# test_plot.sh - "pagehop pages --plot": a file name never reaches gnuplot as
# code (a name with quotes and system() runs nothing), gnuplot is run by its
# absolute path and not looked up in $PATH, a plot path that cannot be
# written is refused before anything is measured (exit 2, one line, empty
# stdout), and a plot that is written is an SVG at the name asked, with
# nothing of it on stdout.
. "$(dirname "$0")/lib.sh"

[ -x /usr/bin/gnuplot ] || skip_test "/usr/bin/gnuplot missing (gnuplot-nox, installed by scripts/install-deps.sh check)"
QUICK=(pages --page-sizes 4k --min 16K --max 64K --time 0.05 --ci 50 --format json)

# The name closes gnuplot's quote and calls system(): a command in the name
# must stay a name.  It is relative, so that it has no slash, and runs in $TMP/work.
mkdir -p "$TMP/bin" "$TMP/work"
evil="x'; system('touch pwned'); print 'y.svg"
(cd "$TMP/work" && "$PAGEHOP" "${QUICK[@]}" --plot "$evil" >"$TMP/out.json" 2>"$TMP/err")
rc=$?
expect "quoted name: exit 0" "$rc" 0
[ -e "$TMP/work/pwned" ] && fail "the name ran system(): $TMP/work/pwned exists" ||
	pass "the name ran nothing"
grep -q '<svg' "$TMP/work/$evil" 2>/dev/null && pass "the SVG is at the name as given" ||
	fail "no SVG at '$evil': $(ls "$TMP/work"; cat "$TMP/err")"
jq -e . "$TMP/out.json" >/dev/null 2>&1 && pass "stdout is the JSON alone" ||
	fail "stdout is not JSON: $(head -c 200 "$TMP/out.json")"
grep -q '<svg' "$TMP/out.json" && fail "SVG on stdout" || pass "no SVG on stdout"
expect "nothing but the plot left in the directory" "$(ls -A "$TMP/work" | wc -l)" 1
ls /tmp | grep -q "^pagehop-plot-" && fail "a pagehop-plot temporary left in /tmp: $(ls -d /tmp/pagehop-plot-*)" ||
	pass "no temporary left in /tmp"

# A gnuplot in $PATH that leaves a mark if it is ever run: root must not run it.
printf '#!/bin/sh\ntouch "%s/path-gnuplot-ran"\ncat >/dev/null\n' "$TMP" >"$TMP/bin/gnuplot"
chmod +x "$TMP/bin/gnuplot"
PATH="$TMP/bin:$PATH" "$PAGEHOP" "${QUICK[@]}" --plot "$TMP/p.svg" >/dev/null 2>"$TMP/err" ||
	fail "plot with a gnuplot in \$PATH: $(cat "$TMP/err")"
[ -e "$TMP/path-gnuplot-ran" ] && fail "gnuplot was looked up in \$PATH" ||
	pass "gnuplot run by absolute path, not from \$PATH"
grep -q '<svg' "$TMP/p.svg" 2>/dev/null && pass "and the plot is there" || fail "no plot at $TMP/p.svg"

# A directory that does not exist: refused before measuring.  Three figures
# of --time 3 would take at least 9 s if anything were measured first.
start=$(date +%s)
usage_error "--plot into a missing directory" pages --page-sizes 4k --min 64M --max 64M --time 3 --plot "$TMP/none/p.svg"
took=$(($(date +%s) - start))
[ "$took" -le 2 ] && pass "refused in ${took}s, before measuring" || fail "refused only after ${took}s"
usage_error "--plot onto a directory" "${QUICK[@]}" --plot "$TMP/work/"
mkdir "$TMP/d.svg"
usage_error "--plot onto a directory named .svg" "${QUICK[@]}" --plot "$TMP/d.svg"
ln -s "$TMP/out.json" "$TMP/link.svg"
usage_error "--plot onto a symbolic link" "${QUICK[@]}" --plot "$TMP/link.svg"
finish
