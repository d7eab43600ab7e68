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
head -n 5 "$root/README.md" | grep -q '^make run' && head -n 5 "$root/README.md" | grep -q '^make check' &&
	pass "README starts with make run and make check" || fail "README start"
finish
