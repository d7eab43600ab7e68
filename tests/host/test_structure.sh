# SPDX-License-Identifier: GPL-2.0-only
# test_structure.sh PAGEHOP - no two files of pagehop.ko depend on each other
# in a loop, by include or by call (scripts/structure.py --check --module).
# It builds nothing: the call edges come from the module objects that
# "make kmod" left next to PAGEHOP (BUILD/kmod/<kver>/kmod), and only if they
# were built from kmod/ as it is now.  Without them only the includes can be
# checked: a cycle there still fails, else the test skips and says why.
# The module only, for now: user/ has its own check to come.
. "$(dirname "$0")/lib.sh"
root=$PAGEHOP_ROOT
build=$(dirname "$PAGEHOP")

command -v python3 >/dev/null || skip_test "skip: python3 not installed"
command -v nm >/dev/null || skip_test "skip: nm (binutils) not installed"
python3 "$root/scripts/structure.py" --check --module "$build" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
case $rc in
0) pass "kmod/: no dependency cycle, by include or by call" ;;
77) skip_test "skip: no module objects built from kmod/ as it is (make kmod KVER=...); the includes alone have no cycle" ;;
*) fail "kmod/: $(grep -c 'cycle:' "$TMP/out") dependency cycle(s) (exit $rc)" ;;
esac
finish
