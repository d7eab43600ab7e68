# SPDX-License-Identifier: GPL-2.0-only
# test_slit_online.sh - "pagehop slit" without --input on this machine: on a
# single node there is nothing to compare, which is the answer (exit 0);
# an output file asked for there cannot be had (exit 4).
. "$(dirname "$0")/lib.sh"

# --input is optional: without it slit measures this machine, and says so.
expect "help slit: --input optional" "$("$PAGEHOP" help slit | head -n 1)" \
	"usage: pagehop slit [--input FILE] [OPTIONS]"
"$PAGEHOP" slit --help | grep -q '^measuring (without --input):$' &&
	pass "slit --help: the measuring options under their heading" || fail "slit --help: no measuring heading"

nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -gt 1 ]; then
	[ "$_failed" = 0 ] || finish
	skip_test "$nodes NUMA nodes: measuring them is 'pagehop matrix', checked by the VM tests"
fi

"$PAGEHOP" slit >"$TMP/out" 2>"$TMP/err"
expect "single node: exit 0" "$?" 0
expect "single node: nothing on stderr" "$(cat "$TMP/err")" ""
grep -q "nothing to compare on a single node" "$TMP/out" &&
	pass "single node: says there is nothing to compare" ||
	fail "single node: output: $(cat "$TMP/out")"

"$PAGEHOP" slit --format json >"$TMP/out.json" 2>"$TMP/err"
expect "single node, JSON: exit 0" "$?" 0
expect "single node, JSON: status" "$(jq -r .verdict.status "$TMP/out.json")" "nothing to compare"
expect "single node, JSON: exit code recorded" "$(jq -r .verdict.exit_code "$TMP/out.json")" 0

# An output asked for cannot be had on one node (nothing is measured): each is
# named on stderr, nothing is written, and the exit is 4, not the answer's 0.
for opt in --save --emit-acpi --emit-hmat --hwloc; do
	"$PAGEHOP" slit $opt "$TMP/x.out" >"$TMP/out" 2>"$TMP/err"
	expect "single node, $opt: exit 4 (not to be had here)" "$?" 4
	[ ! -e "$TMP/x.out" ] && pass "single node, $opt: nothing written" || fail "single node, $opt: $TMP/x.out written"
	grep -q -- "^pagehop slit: $opt $TMP/x.out: not written: this machine has a single NUMA node" "$TMP/err" &&
		pass "single node, $opt: says why not" || fail "single node, $opt: stderr: $(cat "$TMP/err")"
	expect "single node, $opt: nothing on stdout" "$(cat "$TMP/out")" ""
done
usage_error "single node: bad option still a usage error" slit --tolerance x
finish
