# SPDX-License-Identifier: GPL-2.0-only
# tap.sh - TAP helpers for guest tests (busybox sh).  Source it first.
#
#   plan N                  the number of results that will follow
#   ok DESC                 a pass
#   not_ok DESC [DETAIL]    a failure; DETAIL is printed as a diagnostic
#   check DESC CMD...       ok if CMD succeeds, else not ok with its output
#   skip DESC REASON        a pass marked "# SKIP REASON"
#   diag TEXT               a "# TEXT" line
. /etc/pagehop-vm.env
_tap_n=0
plan() { echo "1..$1"; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() {
	_tap_n=$((_tap_n + 1))
	echo "not ok $_tap_n - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /'
	return 0
}
check() {
	_d=$1
	shift
	if _o=$("$@" 2>&1); then ok "$_d"; else not_ok "$_d" "$_o"; fi
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
diag() { echo "# $*"; }
