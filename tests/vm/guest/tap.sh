# SPDX-License-Identifier: GPL-2.0-only
# tap.sh - TAP helpers for guest tests (busybox sh).  Source it first.
#
#   plan N                  the number of results that will follow
#   ok DESC                 a pass
#   not_ok DESC [DETAIL]    a failure; DETAIL is printed as a diagnostic
#   check DESC CMD...       ok if CMD succeeds, else not ok with its output
#   check_v DESC CMD...     as check, and on success CMD's output (sub_out) as diagnostics
#   sub_out OUTPUT          what a kmodtest or kwalk test printed, without the
#                           TAP lines of its own (version, plan, result)
#   skip DESC REASON        a pass marked "# SKIP REASON"
#   diag TEXT               a "# TEXT" line
#   gib_nodes               the nodes, in order, to ask for a free aligned GiB
#   wi_robin N W            the pages per node ("0:3,1:1") of N pages laid
#                           out by pagehop's weighted round robin from the
#                           segment's first page, weights W ("0:3,1:1")
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
check_v() {
	_d=$1
	shift
	if _o=$("$@" 2>&1); then ok "$_d"; sub_out "$_o" | sed 's/^/# /'; else not_ok "$_d" "$_o"; fi
}
# kmodtest and kwalk run one test each and report it in TAP of their own
# (tests/vm/guest/lib/harness.h): "TAP version 13", "1..1", what the test
# printed, "ok 1 NAME ARGS" or "not ok 1 NAME ARGS".  A script that makes
# that one of its own results, or reads what the test printed, takes the
# text between.
sub_out() { printf '%s\n' "$1" | grep -vE '^(TAP version [0-9]+|1\.\.[0-9]+|(not )?ok [0-9]+( .*)?)$'; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
diag() { echo "# $*"; }
# pagehop.ko's 1 GiB buffers are best effort (docs/abi.md): a test takes the
# first node with a free aligned GiB.  Node 0, whose low memory holds the
# kernel, comes last; two rounds, since a GiB freed by the run before can be
# busy for a moment (pages allocated since, until they are freed).
gib_nodes() {
	_g="$(seq 1 $((VM_NODES - 1)) | tr '\n' ' ')0"
	echo "$_g $_g"
}
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
# wi_check JSON "0 1 2 3" HAND: one result per line below for the section
# interleave_weights of "pagehop slit" in JSON, against the weights
# worked out by hand for the booted HMAT (HAND, "0:1 1:1 ..."), then
# against this kernel's /sys/kernel/mm/mempolicy/weighted_interleave read
# with cat ("-" for a node without a file), or its absence.
wi_check() {
	_w=$(jq -r .interleave_weights.weights_firmware "$1")
	[ "$_w" = "$3" ] && ok "interleave weights 6.16+ would derive from the booted HMAT: $_w" ||
		not_ok "interleave weights" "pagehop: $_w; by hand $3; $(jq -c .interleave_weights "$1")"
	_d=/sys/kernel/mm/mempolicy/weighted_interleave
	if [ -d $_d ]; then
		_want=$(for _n in $2; do
			if [ -r $_d/node$_n ]; then printf '%s:%s ' "$_n" "$(cat $_d/node$_n)"; else printf '%s:- ' "$_n"; fi
		done | sed 's/ $//')
		_w=$(jq -r .interleave_weights.weights_sysfs "$1")
		_e=$(jq -r .interleave_weights.sysfs_as_expected "$1")
		[ "$_w" = "$_want" ] && [ "$_e" = true ] &&
			ok "weighted_interleave read back as cat shows it ($(uname -r)): $_w, auto $(jq -r .interleave_weights.sysfs_auto "$1"), as expected" ||
			not_ok "weighted_interleave sysfs" "pagehop: $_w (as expected: $_e); cat: $_want; $(jq -c .interleave_weights "$1")"
	else
		_w=$(jq -r .interleave_weights.sysfs "$1")
		case $_w in
		absent*) ok "no $_d in $(uname -r), and pagehop says so: $_w" ;;
		*) not_ok "weighted_interleave absent" "no $_d but pagehop says: $_w" ;;
		esac
	fi
}

# wi_robin N W: weights w over W pages a cycle; node k holds
# floor(N / W) * w_k plus its part of the last partial cycle,
# min(max(N mod W - a_k, 0), w_k), a_k the weights before it.
wi_robin() {
	echo "$2" | awk -v N="$1" -F, '{
		W = 0; for (i = 1; i <= NF; i++) { split($i, p, ":"); w[i] = p[2]; nd[i] = p[1]; W += p[2] }
		a = 0; r = N % W; s = ""
		for (i = 1; i <= NF; i++) {
			x = r - a; if (x < 0) x = 0; if (x > w[i]) x = w[i]
			s = s (i > 1 ? "," : "") nd[i] ":" int(N / W) * w[i] + x; a += w[i]
		}
		print s }'
}
