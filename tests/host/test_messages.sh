# SPDX-License-Identifier: GPL-2.0-only
# test_messages.sh - what pagehop says when it refuses: one line on stderr
# with what it quotes escaped (an option's value, a file's name, an
# unknown command: a newline as \n, an escape as \e), so that neither a
# second line nor a terminal escape sequence reaches the terminal; an empty
# list refused, not taken as the default; an extra argument to help refused;
# a trailing comma in --tolerance refused; baseline stopped before it
# measured anything says so.
. "$(dirname "$0")/lib.sh"

# one_line DESC WANT ARGS...: exit 2, nothing on stdout, one line on stderr
# holding WANT (fixed string), and no control character in it.
one_line() {
	local desc=$1 want=$2 rc
	shift 2
	"$PAGEHOP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		! LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$TMP/err") && grep -qF -- "$want" "$TMP/err"; then
		pass "$desc: $(cat "$TMP/err")"
	else
		fail "$desc: exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr ($(wc -l <"$TMP/err") lines): $(od -c "$TMP/err" | head -n 4)"
	fi
}

# ---- what is quoted is escaped ----
one_line "--size with a newline" "'1\n'" stream --size $'1\n'
one_line "--size with an OSC and a CSI sequence" "'\e]0;pwned\x07\e[31mRED'" stream --size $'\e]0;pwned\a\e[31mRED'
one_line "--format with a tab" "'a\tb'" chase --format $'a\tb'
one_line "an unknown command" "unknown command 'x\e[2Jy'" $'x\e[2Jy'
one_line "an unknown option" "unknown option '--x\e[31m'" stream $'--x\e[31m'
one_line "an input file's name" "/tmp/none\n\e[31m" slit --input $'/tmp/none\n\e[31m'
one_line "help for an unknown command" "unknown command 'x\ny'" help $'x\ny'

# ---- an empty list is refused, not taken as the default ----
one_line "locks --threads ''" "--threads" locks --threads '' --time 0.1
one_line "locks --kinds ''" "--kinds" locks --kinds '' --time 0.1
one_line "scale --threads-list ''" "--threads-list" scale --threads-list '' --time 0.1
one_line "goaround --turns ''" "--turns" goaround --turns '' --time 0.1
one_line "chase --pattern ''" "--pattern" chase --pattern ''
one_line "stream --kernel ''" "--kernel" stream --kernel ''

# ---- help takes one command ----
one_line "help slit x" "unexpected argument 'x'" help slit x

# ---- --tolerance: a trailing comma is an empty element ----
B=$TMP/b.json
"$PAGEHOP" baseline --time 0.2 --format json >"$B" 2>"$TMP/berr" || fail "baseline: $(cat "$TMP/berr")"
"$PAGEHOP" compare --tolerance bandwidth=-0.05:none, "$B" "$B" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q "empty element" "$TMP/err" &&
	pass "compare --tolerance with a trailing comma: $(cat "$TMP/err")" ||
	fail "compare --tolerance with a trailing comma: exit $rc, stderr: $(cat "$TMP/err")"

# ---- baseline stopped before anything was measured ----
# --ci 0.01 with --time 30: the first figure takes the whole budget, as
# a CI that tight is not met; the signal comes once its progress line is
# on stderr, after the handlers are installed (the pool, the module and
# the clock are set up before it), however long a busy host takes to get
# there.
"$PAGEHOP" baseline --time 30 --ci 0.01 --progress --format json >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do
	grep -q '^baseline \[1/' "$TMP/err" && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
expect "baseline interrupted: exit" $rc 130
grep -q "interrupted before anything was measured" "$TMP/err" &&
	pass "baseline interrupted: $(tail -n 1 "$TMP/err")" || fail "baseline interrupted: stderr: $(cat "$TMP/err")"
finish
