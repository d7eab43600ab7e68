#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh DIR - run every unit test binary in DIR from the source tree's root
# (the tests read golden files under tests/data/); fail if any fails.
set -u
dir=$1
fail=0 n=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	n=$((n + 1))
	if ! "$t"; then
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
done
if [ "$n" -eq 0 ]; then
	echo "no unit tests found in $dir" >&2
	exit 1
fi
echo "unit tests ($dir): $((n - fail))/$n programs passed"
[ "$fail" -eq 0 ]
