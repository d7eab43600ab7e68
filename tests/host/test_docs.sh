# SPDX-License-Identifier: GPL-2.0-only
# test_docs.sh - the man page renders without a warning and documents every
# command 'pagehop help' lists; every command's --help works; the README
# starts with the two setup commands.
. "$(dirname "$0")/lib.sh"
root=$PAGEHOP_ROOT

if command -v groff >/dev/null; then
	w=$(groff -man -ww -z "$root/docs/pagehop.1" 2>&1)
	[ -z "$w" ] && pass "pagehop.1 renders without warnings" || fail "groff: $w"
fi
cmds=$("$PAGEHOP" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}' | grep -v '^help$')
[ -n "$cmds" ] || fail "no commands in pagehop help"
for c in $cmds; do
	grep -q "^\.SS pagehop $c\$" "$root/docs/pagehop.1" && pass "man page documents $c" || fail "man page lacks $c"
	"$PAGEHOP" "$c" --help >"$TMP/h" 2>&1 && grep -q "^usage: pagehop $c" "$TMP/h" && pass "$c --help" ||
		fail "$c --help: $(head -n 2 "$TMP/h")"
	grep -q "\`pagehop $c\`" "$root/README.md" && pass "README lists $c" || fail "README lacks $c"
done
# Exit codes: 'pagehop help' lists every PH_EXIT_* constant of util.h and
# every code the man page's EXIT STATUS gives, each once.
"$PAGEHOP" help >"$TMP/help"
listed=$(awk '/^exit status:/ {on=1; next} on && /^  [0-9]/ {print $1} on && !/^  / {on=0}' "$TMP/help" | sort -n | paste -sd' ')
consts=$(sed -n 's/^[[:space:]]*PH_EXIT_[A-Z_]*[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$root/user/io/util.h" | sort -n | paste -sd' ')
man=$(awk '/^\.SH EXIT STATUS/ {on=1; next} on && /^\.SH/ {on=0} on && prev == ".TP" && /^\.B [0-9]+$/ {print $2} {prev=$0}' \
	"$root/docs/pagehop.1" | sort -n | paste -sd' ')
expect "help lists every exit code of util.h" "$listed" "$consts"
expect "help lists every exit code of the man page" "$listed" "$man"
head -n 5 "$root/README.md" | grep -q '^make run' && head -n 5 "$root/README.md" | grep -q '^make check' &&
	pass "README starts with make run and make check" || fail "README start"
finish
