# SPDX-License-Identifier: GPL-2.0-only
# tests/host/lib.sh - helpers for host tests.  Source it; $1 is the binary.
set -u
PAGEHOP=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
_failed=0

pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; _failed=1; }
skip_test() { echo "$*"; exit 77; }
# expect DESC ACTUAL WANT
expect() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }
# usage_error DESC ARGS...: exit 2, one line on stderr, nothing on stdout.
usage_error() {
	local desc=$1 rc
	shift
	"$PAGEHOP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		pass "$desc: $(cat "$TMP/err")"
	else
		fail "$desc: exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr: $(cat "$TMP/err")"
	fi
}
finish() { exit $_failed; }
