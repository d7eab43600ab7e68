#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/check-flap.sh [QUIET] [LOADED] [BUDGET] - does "pagehop check"
# hold its verdict from run to run?  One baseline (pagehop baseline, its
# defaults: three repeats of each figure), then QUIET (default 20)
# consecutive checks against it (--budget BUDGET, default 20), then LOADED
# (default 10) while a memory-bandwidth load runs on the last CPU
# (pagehop stream's triad over 1 GiB, pinned there, for as long as the
# checks take).  Prints each check's verdict line and the load it saw
# (other tasks' CPU time in CPUs, CPU pressure), then the tally of
# verdicts on each side, and under load whether each check named the
# load's process (its PID among the busiest processes of the check's
# load_processes).  The target (docs/diagnostics.md, "A busy host"): on
# a quiet host no CRITICAL and at most 2 WARNINGs of 20; under load none
# of 10 OK and each naming the load.  "Quiet" is whatever the host is
# doing besides: the load seen is printed beside each verdict so that a
# busy minute shows as one.  CHECK_ARGS adds options to every check
# ("--busy judge": judged whatever the load).  Exit 4 if a tool is missing.
#
# Example: bash bench/check-flap.sh 20 10
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [QUIET] [LOADED] [BUDGET]" >&2; exit 2; }
quiet=${1:-20} loaded=${2:-10} budget=${3:-20}
for v in "$quiet" "$loaded" "$budget"; do case $v in '' | *[!0-9]*) usage ;; esac; done
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root: check measures on verified memory" >&2; exit 4; }
last=$(($(nproc) - 1))
tmp=$(mktemp -d)
load=
trap '[ -n "$load" ] && kill -- -"$load" 2>/dev/null; rm -rf "$tmp"' EXIT

"$pagehop" baseline --save "$tmp/b.json" >/dev/null 2>"$tmp/err" || [ -s "$tmp/b.json" ] ||
	{ echo "baseline failed: $(tail -n 1 "$tmp/err")" >&2; exit 1; }
echo "baseline:"
jq -r '.figures[] | select(.samples != null) |
	"  \(.figure) node \(.node)->\(.mem_node): \(.value) \(.unit), CI \(.ci_lo)-\(.ci_hi), repeats \(.rep_lo)-\(.rep_hi)"' "$tmp/b.json"
jq -r '"  load while measuring: other tasks \(.load.other_cpus) CPU, CPU pressure \(.load.psi_cpu_some_pct)%"' "$tmp/b.json"

# one SIDE I: a check; prints its line and load, appends its status to $tmp/SIDE
one() {
	local rc=0 named=-
	# shellcheck disable=SC2086 # CHECK_ARGS: words on purpose
	"$pagehop" check --baseline "$tmp/b.json" --budget "$budget" ${CHECK_ARGS:-} --format json \
		>"$tmp/c.json" 2>/dev/null || rc=$?
	if [ -n "$load" ]; then
		named=no
		jq -e --argjson p "$load" '[.load_processes[] | select(.pid == $p)] | length > 0' "$tmp/c.json" \
			>/dev/null && named=yes
		echo "$named" >>"$tmp/$1.named"
	fi
	jq -r .verdict.status "$tmp/c.json" >>"$tmp/$1"
	printf '%s %2d: exit %d, other %s CPU, CPU pressure %s%%, load named: %s: %s\n' "$1" "$2" "$rc" \
		"$(jq -r .load.other_cpus "$tmp/c.json")" "$(jq -r .load.psi_cpu_some_pct "$tmp/c.json")" \
		"$named" "$(jq -r .verdict.line "$tmp/c.json")"
}
tally() { sort "$tmp/$1" | uniq -c | awk '{ s = s (NR > 1 ? ", " : "") $1 " " $2 } END { print s }'; }

for i in $(seq 1 "$quiet"); do one quiet "$i"; done
if [ "$loaded" -gt 0 ]; then
	setsid "$pagehop" stream --physcpubind "$last" --size 1G --kernel triad --time 3600 --ci 0.001 \
		--format csv >/dev/null 2>&1 &
	load=$!
	sleep 3
	kill -0 "$load" 2>/dev/null || { echo "the load (pagehop stream) did not start" >&2; exit 1; }
	for i in $(seq 1 "$loaded"); do one loaded "$i"; done
	kill -- -"$load" 2>/dev/null || true
	wait "$load" 2>/dev/null || true
	load=
fi
[ "$quiet" -gt 0 ] && echo "quiet ($quiet checks): $(tally quiet)"
if [ "$loaded" -gt 0 ]; then
	echo "loaded ($loaded checks): $(tally loaded); load named by $(grep -c yes "$tmp/loaded.named" || true) of $loaded"
fi
