# SPDX-License-Identifier: GPL-2.0-only
# test_make_run.sh - "make run" builds only what it runs: build/pagehop and
# nothing under tests/ (the unit tests need cmocka, which only "make check"
# installs).  Checked twice: what "make -n -B run" would do, and a real
# "make run" in a copy of the tree with a compiler that refuses any source
# under tests/, as a machine without cmocka would.
. "$(dirname "$0")/lib.sh"
root=$PAGEHOP_ROOT

make -C "$root" -n -B run BUILD="$TMP/dry" >"$TMP/plan" 2>&1 || fail "make -n -B run: $(tail -n 3 "$TMP/plan")"
if grep -q 'tests/' "$TMP/plan" || grep -q 'cmocka' "$TMP/plan"; then
	fail "make run would build tests: $(grep -m3 -e 'tests/' -e cmocka "$TMP/plan")"
else
	pass "make -n -B run compiles nothing under tests/ ($(grep -c ' -c ' "$TMP/plan") compilations)"
fi
grep -q "$TMP/dry/pagehop" "$TMP/plan" && pass "make -n -B run builds and runs $TMP/dry/pagehop" ||
	fail "make -n -B run does not build pagehop: $(tail -n 3 "$TMP/plan")"

# The real thing, in a copy of the tracked files (the tree as it is, no build/).
mkdir -p "$TMP/tree"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$root" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$TMP/tree"
else
	(cd "$root" && tar --exclude=./build -cf - .) | tar -xf - -C "$TMP/tree"
fi
cat >"$TMP/cc" <<EOF
#!/bin/sh
# A C compiler that fails on anything under tests/, as gcc would without cmocka.h.
for a in "\$@"; do
	case \$a in tests/*) echo "cc: refusing \$a: make run must not build tests" >&2; exit 1 ;; esac
done
exec gcc "\$@"
EOF
chmod +x "$TMP/cc"
if ! bash "$root/scripts/install-deps.sh" run 2>/dev/null; then
	skip_test "the packages make run needs are missing and cannot be installed by this user"
fi
make -C "$TMP/tree" run CC="$TMP/cc" >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
expect "make run in a fresh tree: exit 0" "$rc" 0
[ $rc -eq 0 ] || echo "$(tail -n 5 "$TMP/run.err")"
grep -q 'first figures' "$TMP/run.out" && pass "make run ran the survey" ||
	fail "no survey in make run's output: $(tail -n 5 "$TMP/run.out")"
[ -x "$TMP/tree/build/pagehop" ] && pass "build/pagehop built" || fail "no build/pagehop"
[ -e "$TMP/tree/build/tests" ] && fail "build/tests exists: $(ls "$TMP/tree/build/tests" | head -3)" ||
	pass "no unit test built"
finish
