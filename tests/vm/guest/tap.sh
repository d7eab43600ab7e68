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
# sys_slit: the kernel's node distances as "numactl --hardware" prints them.
sys_slit() {
	echo "node distances:"
	echo "node   0   1   2   3"
	for _n in 0 1 2 3; do echo "  $_n:   $(cat /sys/devices/system/node/node$_n/distance)"; done
}
# flat_csv: a 4-node latency matrix of 100 ns everywhere, for analyses
# whose subject is a table, not the measurement.
flat_csv() {
	printf '# pagehop matrix\n# metric: latency_ns\nnode,0,1,2,3\n'
	for _n in 0 1 2 3; do echo "$_n,100,100,100,100"; done
}
# wi_list "0 1 2 3": those nodes' weighted-interleave weights as cat reads
# them from /sys/kernel/mm/mempolicy/weighted_interleave, "0:1 1:1 ...",
# "-" for a node without a file.
wi_list() {
	for _n in $1; do
		if [ -r /sys/kernel/mm/mempolicy/weighted_interleave/node$_n ]; then
			printf '%s:%s ' "$_n" "$(cat /sys/kernel/mm/mempolicy/weighted_interleave/node$_n)"
		else
			printf '%s:- ' "$_n"
		fi
	done | sed 's/ $//'
}
