# SPDX-License-Identifier: GPL-2.0-only
# test_contrib.sh - the scripts of contrib/ with the real pagehop, on
# machines without Slurm or NHC (test_slurm.sh runs the HealthCheckProgram
# under a real Slurm where there is one): the HealthCheckProgram's
# scontrol call (SCONTROL pointed at a script that records its arguments),
# NHC's check_pagehop through NHC's contract (die with a message on
# failure, quiet on success), and "make install" putting contrib/ and
# docs/diagnostics.md in place.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: check measures on verified memory (pagemap)"
command -v jq >/dev/null || skip_test "needs jq"
root=$PAGEHOP_ROOT
"$PAGEHOP" baseline --time 0.3 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
jq '(.figures[] | select(.kind == "latency" or .kind == "bandwidth") | .lower, .upper) |= null' \
	"$TMP/b.json" >"$TMP/fitting.json"
# Unmeetable: the fitting baseline with twice this machine's memory. Only
# the memory is out, so the verdict's line names it (a noisy 2 s bandwidth
# figure further out would otherwise take the line).
jq '(.figures[] | select(.figure == "mem_total") | .value, .ci_lo, .ci_hi) |= . * 2' "$TMP/fitting.json" >"$TMP/unmeetable.json"

# ---- Slurm's HealthCheckProgram ----
cat >"$TMP/scontrol" <<'SC'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done >"$SCONTROL_LOG"
SC
chmod +x "$TMP/scontrol"
hc() {
	SCONTROL=$TMP/scontrol SCONTROL_LOG=$TMP/sc.log SLURMD_NODENAME=n17 PAGEHOP=$PAGEHOP \
		PAGEHOP_BASELINE=$1 PAGEHOP_BUDGET=3 sh "$root/contrib/slurm/pagehop-healthcheck.sh"
}
rm -f "$TMP/sc.log"
hc "$TMP/unmeetable.json"
expect "healthcheck, CRITICAL: exit" "$?" 0
expect "healthcheck, CRITICAL: scontrol update nodename=n17 state=drain" \
	"$(head -n 3 "$TMP/sc.log" 2>/dev/null | paste -sd' ')" "update nodename=n17 state=drain"
grep -q '^reason=PAGEHOP CRITICAL - node [0-9]* mem_total .*50% below baseline' "$TMP/sc.log" &&
	pass "healthcheck: $(sed -n 4p "$TMP/sc.log")" || fail "healthcheck reason: $(cat "$TMP/sc.log" 2>/dev/null)"
rm -f "$TMP/sc.log"
hc "$TMP/fitting.json"
[ ! -e "$TMP/sc.log" ] && pass "healthcheck, fitting baseline: scontrol not called" ||
	fail "healthcheck, fitting: $(cat "$TMP/sc.log")"

# ---- NHC ----
nhc() {
	bash -c '
		die() { echo "die $1: $2"; return "$1"; }
		PAGEHOP_CMD=$1
		. "$2"
		shift 2
		check_pagehop "$@"
		echo "rc $?"' _ "$PAGEHOP" "$root/contrib/nhc/pagehop.nhc" "$@"
}
out=$(nhc -b "$TMP/unmeetable.json" -t 3)
case $out in
"die 1: check_pagehop: PAGEHOP CRITICAL - node "*"rc 1") pass "nhc, CRITICAL: $(echo "$out" | head -n 1)" ;;
*) fail "nhc, CRITICAL: $out" ;;
esac
expect "nhc, fitting: quiet" "$(nhc -b "$TMP/fitting.json" -t 3)" "rc 0"
out=$(nhc -b "$TMP/none.json" -t 3 -u)
case $out in
"die 1: check_pagehop: PAGEHOP UNKNOWN - "*) pass "nhc -u, UNKNOWN: $(echo "$out" | head -n 1)" ;;
*) fail "nhc -u: $out" ;;
esac
expect "nhc without -u, UNKNOWN: quiet" "$(nhc -b "$TMP/none.json" -t 3)" "rc 0"

# ---- make install puts them in place ----
make -s -C "$root" install-contrib-files DESTDIR="$TMP/d" PREFIX=/usr/local >"$TMP/mk" 2>&1 ||
	fail "make install-contrib-files: $(tail -n 3 "$TMP/mk")"
for f in slurm/pagehop-healthcheck.sh slurm/pagehop-fleet.sbatch prometheus/pagehop-check.service \
	prometheus/pagehop-check.timer prometheus/pagehop.rules.yml nhc/pagehop.nhc; do
	cmp -s "$root/contrib/$f" "$TMP/d/usr/local/share/pagehop/$f" && pass "installed: $f" || fail "not installed: $f"
done
[ -x "$TMP/d/usr/local/share/pagehop/slurm/pagehop-healthcheck.sh" ] && pass "the HealthCheckProgram is executable" ||
	fail "the HealthCheckProgram is not executable"
cmp -s "$root/docs/diagnostics.md" "$TMP/d/usr/local/share/doc/pagehop/diagnostics.md" && pass "installed: diagnostics.md" ||
	fail "not installed: diagnostics.md"
grep -q 'install-contrib-files' <(sed -n '/^install:/,/^$/p' "$root/Makefile") && pass "make install runs install-contrib-files" ||
	fail "make install does not install contrib/"
finish
