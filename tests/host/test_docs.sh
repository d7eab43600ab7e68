# SPDX-License-Identifier: GPL-2.0-only
# test_docs.sh - the man page renders without a warning and documents every
# command 'pagehop help' lists; every command's --help works; the README
# starts with the two setup commands.  The man page's option lists and EXIT
# STATUS are generated from the command's tables (docs/update-man.sh): they
# must be what the binary prints now, and, read back from the page, name
# the options and defaults --help gives for every command, and the exit
# codes 'pagehop help' and util.h's PH_EXIT_* constants give.  Every option
# the hand-written COMMON and MEASURING OPTIONS sections describe must be
# one some command takes.
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
consts=$(sed -n 's/^[[:space:]]*PH_EXIT_[A-Z_]*[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$root/user/base/util.h" | sort -n | paste -sd' ')
man=$(awk '/^\.SH EXIT STATUS/ {on=1; next} on && /^\.SH/ {on=0} on && prev == ".TP" && /^\.B [0-9]+$/ {print $2} {prev=$0}' \
	"$root/docs/pagehop.1" | sort -n | paste -sd' ')
expect "help lists every exit code of util.h" "$listed" "$consts"
expect "help lists every exit code of the man page" "$listed" "$man"
expect "help and man page give each exit code the same meaning" \
	"$(awk '/^exit status:/ {on=1; next} on && !/^  / {on=0} on {c=$1; t=$0; sub(/^ +[0-9]+ +/, "", t); print c ": " t "."}' "$TMP/help")" \
	"$(awk '/^\.SH EXIT STATUS/ {on=1; next} on && /^\.SH/ {on=0} on && prev ~ /^\.B [0-9]+$/ {print substr(prev, 4) ": " $0} {prev=$0}' \
		"$root/docs/pagehop.1" | sed 's/\\-/-/g')"

# The generated parts are what this binary prints.
cp "$root/docs/pagehop.1" "$TMP/page.1"
if bash "$root/docs/update-man.sh" "$PAGEHOP" "$TMP/page.1" 2>"$TMP/err"; then
	if diff -u "$root/docs/pagehop.1" "$TMP/page.1" >"$TMP/diff"; then
		pass "the man page's generated parts are current"
	else
		fail "docs/pagehop.1 is stale: run bash docs/update-man.sh build/pagehop; $(head -n 20 "$TMP/diff")"
	fi
else
	fail "docs/update-man.sh: $(cat "$TMP/err")"
fi
usage_error "--man-options of no command" --man-options nosuch

# help_opts CMD -> "--name default" lines from 'pagehop CMD --help': an
# option line starts with two spaces and a dash, its continuation lines with
# more spaces; the default is the "(default X)" or "(default: X)" of the
# joined text (a default too long for one line is broken after a comma:
# ", " is read as ",").
help_opts() {
	"$PAGEHOP" "$1" --help | awk '
		function flush() { if (name != "") { d = "-"; if (match(text, /\(default:? [^)]*\)/)) d = substr(text, RSTART, RLENGTH); print name, d }; name = "" }
		/^  -/ { flush(); line = $0; sub(/^  (-[a-zA-Z], )?/, "", line); name = line; sub(/ .*/, "", name); sub(/\[=.*/, "", name); text = line; next }
		/^      / && name != "" { t = $0; sub(/^ +/, "", t); text = text " " t; next }
		{ flush() }
		END { flush() }' | sed 's/  */ /g; s/, /,/g' | sort
}
# man_opts CMD -> the same from the man page's generated list for CMD.
man_opts() {
	awk -v c="$1" '$0 == ".\\\" BEGIN generated: pagehop --man-options " c {on=1; next}
		on && /^\.\\" END generated/ {on=0}
		on && prev == ".TP" { name = $0; sub(/^(\\fB\\-[a-zA-Z]\\fR, )?\\fB/, "", name); sub(/\\fR.*/, "", name); getline text
			gsub(/\\-/, "-", name); gsub(/\\-/, "-", text); d = "-"
			if (match(text, /\(default:? [^)]*\)/)) d = substr(text, RSTART, RLENGTH)
			print name, d }
		{prev=$0}' "$root/docs/pagehop.1" | sed 's/  */ /g; s/, /,/g' | sort
}
all_opts=
for c in $cmds; do
	h=$(help_opts "$c") m=$(man_opts "$c")
	[ -n "$h" ] || fail "$c --help: no option read"
	if [ "$h" = "$m" ]; then
		pass "$c: man page and --help give the same $(wc -l <<<"$h") options and defaults"
	else
		fail "$c: man page and --help differ: $(diff <(echo "$m") <(echo "$h") | grep '^[<>]' | head -n 6 | tr '\n' ';')"
	fi
	all_opts="$all_opts $(awk '{print $1}' <<<"$h" | tr '\n' ' ')"
done
# Every option the hand-written COMMON OPTIONS and MEASURING OPTIONS name at
# the head of an entry is one some command takes.
heads=$(awk '/^\.SH (COMMON|MEASURING) OPTIONS/ {on=1; next} /^\.SH/ {on=0}
	on && prev == ".TP" {print} {prev=$0}' "$root/docs/pagehop.1" |
	grep -o '\\-\\-[a-z][a-z\\-]*' | sed 's/\\-/-/g' | sort -u)
[ -n "$heads" ] || fail "no option read from COMMON and MEASURING OPTIONS"
for o in $heads; do
	case " $all_opts " in
	*" $o "*) pass "$o (COMMON/MEASURING OPTIONS) is taken by a command" ;;
	*) fail "$o is described in COMMON/MEASURING OPTIONS, but no command takes it" ;;
	esac
done
head -n 5 "$root/README.md" | grep -q '^make run' && head -n 5 "$root/README.md" | grep -q '^make check' &&
	pass "README starts with make run and make check" || fail "README start"

# The results page states the latest figures, not a journal of every run:
# it stays under 25,000 bytes.
n=$(wc -c <"$root/docs/performance.md")
[ "$n" -lt 25000 ] && pass "docs/performance.md is $n bytes" ||
	fail "docs/performance.md is $n bytes: keep the latest figures, history is in git"
finish
