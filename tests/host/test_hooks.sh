# SPDX-License-Identifier: GPL-2.0-only
# test_hooks.sh PAGEHOP - the test hooks stay out of the shipping binary.
# PAGEHOP_FAULT_INJECT (a wrong node or page size on purpose, for the tests
# that prove verification catches it) is compiled only into the test build,
# BUILD/test/pagehop (-DPAGEHOP_TEST_HOOKS): the shipping binary holds no
# trace of it and ignores the variable; the test build holds it, so the
# search below can find what it looks for.
. "$(dirname "$0")/lib.sh"
hooked=$(dirname "$PAGEHOP")/test/pagehop

n=$(grep -ac PAGEHOP_FAULT_INJECT "$PAGEHOP")
expect "the shipping binary has no PAGEHOP_FAULT_INJECT ($PAGEHOP)" "$n" 0
if [ -x "$hooked" ]; then
	n=$(grep -ac PAGEHOP_FAULT_INJECT "$hooked")
	[ "$n" -gt 0 ] && pass "the test build has the hook ($hooked: $n)" ||
		fail "the test build $hooked has no PAGEHOP_FAULT_INJECT"
else
	fail "no test build $hooked (make all builds it)"
fi

# The shipping binary ignores the variable: the memory is where it was asked
# (=node too: the guests check that, this host may have one node only).
PAGEHOP_FAULT_INJECT=psize "$PAGEHOP" chase --size 16M --time 0.1 --format json \
	>"$TMP/o.json" 2>"$TMP/e"
rc=$?
expect "PAGEHOP_FAULT_INJECT=psize ignored: exit ($(head -c 300 "$TMP/e"))" "$rc" 0
expect "PAGEHOP_FAULT_INJECT=psize ignored: verified 4K" \
	"$(jq -r '"\(.chase[0].verified) \(.chase[0].page_size)"' "$TMP/o.json" 2>/dev/null)" "true 4K"
finish
