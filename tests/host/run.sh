#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/host/run.sh PAGEHOP [TEST...] - run the host tests against the real
# binary on this machine.  Each tests/host/test_*.sh gets the binary's path
# as $1 and exits 0 (pass), 77 (skip: it prints why) or anything else (fail).
set -u
bin=$(readlink -f "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
export PAGEHOP_ROOT=${here%/tests/host}
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$here"/test_*.sh)
pass=0 skip=0 fail=0
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	log=$(mktemp)
	start=$(date +%s)
	bash "$t" "$bin" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	case $rc in
	0) echo "ok - $name (${took}s)"; pass=$((pass + 1)) ;;
	77) echo "ok - $name # SKIP $(tail -n 1 "$log")"; skip=$((skip + 1)) ;;
	# Its failures first, then its last lines: a long test's FAIL
	# would otherwise scroll out of what a CI log keeps.
	*) echo "not ok - $name (exit $rc, ${took}s)"; grep '^FAIL' "$log" | sed 's/^/    /'
	   echo "    --- its last lines:"; sed 's/^/    /' "$log" | tail -n 40
	   fail=$((fail + 1)) ;;
	esac
	rm -f "$log"
done
echo "host tests: $pass passed, $skip skipped, $fail failed"
[ $fail -eq 0 ]
