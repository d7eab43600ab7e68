# SPDX-License-Identifier: GPL-2.0-only
# test_structure.sh PAGEHOP - the shape of the tree (scripts/structure.py
# --check): no two files of the command or of pagehop.ko depend on each
# other in a loop, by include or by call; no file of user/ includes or calls
# one of a layer above its own; every file of user/ is in a layer's folder.
# It builds nothing: the command's call edges come from the objects next to
# PAGEHOP (BUILD/obj), the module's from those "make kmod" left under
# BUILD/kmod/<kver>/kmod, if they were built from kmod/ as it is now.  The
# host tests run before the guests build the module, so on a fresh clone
# the module's includes alone are checked here; "make structure", the last
# step of make check, runs the same check with the module's calls too.
. "$(dirname "$0")/lib.sh"
root=$PAGEHOP_ROOT
build=$(dirname "$PAGEHOP")

command -v python3 >/dev/null || skip_test "skip: python3 not installed"
command -v nm >/dev/null || skip_test "skip: nm (binutils) not installed"
python3 "$root/scripts/structure.py" --check "$build" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
if [ $rc -eq 0 ]; then
	pass "no dependency cycle, no import up the layers, every file in its layer's folder$(grep -q 'module.s call edges not counted' "$TMP/out" && echo ' (the module by its includes only: not built yet)')"
else
	fail "structure: $(grep -E 'cycle:|up:|loose:' "$TMP/out" | head -5 | tr '\n' ';') (exit $rc)"
fi
finish
