# SPDX-License-Identifier: GPL-2.0-only
# test_contrib.sh - the files of contrib/ as "make install-contrib-files"
# installs them, on machines without Slurm or NHC (test_slurm.sh runs the
# HealthCheckProgram under a real Slurm):
# - installed under PREFIX=/usr/local and PREFIX=/usr (the .deb's), every
#   path they name to pagehop is that prefix's, no placeholder is left, the
#   scripts parse; the systemd unit passes "systemd-analyze verify" with
#   the command where the prefix puts it;
# - NHC's check_pagehop in NHC's own environment (env -i, its PATH, set -f,
#   a stub die): it dies when the command is missing, not executable, or
#   ends in anything but a verdict (127, 126, a signal, no verdict line);
#   with the real command it dies on CRITICAL, on UNKNOWN only with -u, and
#   is quiet on a fitting baseline;
# - the HealthCheckProgram (SCONTROL pointed at a script that records its
#   arguments) drains with a "PAGEHOP FAILED" reason on the same failures,
#   only logs them with PAGEHOP_DRAIN_ON_FAILURE=0, drains with the verdict
#   line on CRITICAL and leaves the node alone on a fitting baseline.
# The real command's part needs root (check measures on verified memory).
. "$(dirname "$0")/lib.sh"

root=$PAGEHOP_ROOT
command -v jq >/dev/null || skip_test "needs jq"

# ---- installed for a prefix ----
inst() { make -s -C "$root" install-contrib-files "$@" >"$TMP/mk" 2>&1 || fail "make install-contrib-files $*: $(tail -n 3 "$TMP/mk")"; }
for prefix in /usr/local /usr; do
	d=$TMP/d$prefix
	inst DESTDIR="$d" PREFIX="$prefix"
	share=$d$prefix/share/pagehop
	for f in slurm/pagehop-healthcheck.sh slurm/pagehop-fleet.sbatch prometheus/pagehop-check.service \
		prometheus/pagehop-check.timer nhc/pagehop.nhc; do
		# The second path: the template with this prefix put in by hand.
		want=$(sed "s|@BINDIR@|$prefix/bin|g; s|@PKGDATADIR@|$prefix/share/pagehop|g" "$root/contrib/$f.in")
		[ "$(cat "$share/$f" 2>/dev/null)" = "$want" ] && pass "$prefix: $f, made from $f.in" ||
			fail "$prefix: $f is not contrib/$f.in for $prefix"
		grep -n '@[A-Z_]*@' "$share/$f" && fail "$prefix: $f keeps a placeholder"
	done
	cmp -s "$root/contrib/prometheus/pagehop.rules.yml" "$share/prometheus/pagehop.rules.yml" &&
		pass "$prefix: pagehop.rules.yml" || fail "$prefix: pagehop.rules.yml not installed"
	cmp -s "$root/docs/diagnostics.md" "$d$prefix/share/doc/pagehop/diagnostics.md" &&
		pass "$prefix: diagnostics.md" || fail "$prefix: diagnostics.md not installed"
	[ -x "$share/slurm/pagehop-healthcheck.sh" ] && pass "$prefix: the HealthCheckProgram is executable" ||
		fail "$prefix: the HealthCheckProgram is not executable"
	# Every pagehop path the installed files name is this prefix's.
	names=$(grep -oh '/[a-z/]*/\(bin/pagehop\|share/pagehop/[a-z]*/\)' "$share"/*/* | sort -u)
	other=$(echo "$names" | grep -v "^$prefix/\(bin/pagehop\|share/pagehop/\)")
	[ -n "$names" ] && [ -z "$other" ] && pass "$prefix: every path named is $prefix's: $(echo "$names" | paste -sd' ')" ||
		fail "$prefix: paths of another prefix: ${other:-none named}"
	exec=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$share/prometheus/pagehop-check.service")
	expect "$prefix: the unit runs the prefix's pagehop" "$exec" "$prefix/bin/pagehop"
	sh -n "$share/slurm/pagehop-healthcheck.sh" && bash -n "$share/nhc/pagehop.nhc" &&
		bash -n "$share/slurm/pagehop-fleet.sbatch" && pass "$prefix: the scripts parse" || fail "$prefix: a script does not parse"
done
# diagnostics.md's table of paths: each of both columns is a file those
# installs made (the command: where the install recipes below put it).
table=$(sed -n '/^### Where the files are/,/^### /p' "$root/docs/diagnostics.md" | grep '^| ' | tail -n +2)
[ -n "$table" ] || fail "diagnostics.md: no table of paths under 'Where the files are'"
while IFS='|' read -r _ what local deb _; do
	for col in "/usr/local:$local" "/usr:$deb"; do
		prefix=${col%%:*} path=$(echo "${col#*:}" | tr -d '` ')
		case $path in
		"$prefix/bin/pagehop") continue ;;
		"$prefix/"*) ;;
		*) fail "diagnostics.md: $what under $prefix: '$path' is not that prefix's"; continue ;;
		esac
		for f in $(eval echo "$path"); do
			[ -f "$TMP/d$prefix$f" ] || fail "diagnostics.md names $f ($what): not installed for $prefix"
		done
	done
done <<<"$table"
pass "diagnostics.md's paths are those of both installs ($(echo "$table" | wc -l) rows)"
# make install puts the command where the files name it: $(BINDIR).
recipe=$(sed -n '/^install:/,/^$/p' "$root/Makefile")
echo "$recipe" | grep -q 'install -D -m 0755 $(BUILD)/pagehop $(DESTDIR)$(BINDIR)/pagehop' &&
	echo "$recipe" | grep -q 'install-contrib-files' && grep -q '^BINDIR *= *$(PREFIX)/bin$' "$root/Makefile" &&
	pass "make install puts pagehop in \$(PREFIX)/bin and installs contrib/" ||
	fail "make install: the command's path or contrib/ differ from the files': $recipe"
grep -q 'install-contrib-files DESTDIR=$(CURDIR)/debian/pagehop PREFIX=/usr' "$root/debian/rules" &&
	grep -q 'install -D -m 0755 build/pagehop debian/pagehop/usr/bin/pagehop' "$root/debian/rules" &&
	pass "debian/rules: pagehop in /usr/bin, contrib/ made for PREFIX=/usr" || fail "debian/rules installs elsewhere"

# A prefix of this test's (no DESTDIR): the files' default command is
# $P/bin/pagehop, which is not there until the test puts something there.
P=$TMP/prefix
inst PREFIX="$P"
cmd=$P/bin/pagehop
mkdir -p "$P/bin"
if command -v systemd-analyze >/dev/null; then
	cp "$PAGEHOP" "$cmd"
	if systemd-analyze verify "$P/share/pagehop/prometheus/pagehop-check.service" >"$TMP/sa" 2>&1; then
		pass "systemd-analyze verify: the unit, with $cmd"
	elif grep -q 'Failed to \(connect\|initialize\)\|not been booted with systemd\|Read-only file system' "$TMP/sa"; then
		echo "systemd-analyze verify cannot run here: $(head -n 1 "$TMP/sa")"
	else
		fail "systemd-analyze verify: $(cat "$TMP/sa")"
	fi
	rm -f "$cmd"
	systemd-analyze verify "$P/share/pagehop/prometheus/pagehop-check.service" >"$TMP/sa" 2>&1 &&
		fail "systemd-analyze verify accepts the unit without $cmd" ||
		pass "systemd-analyze verify refuses it without the command: $(grep -m1 pagehop "$TMP/sa")"
else
	echo "systemd-analyze is not installed: the unit is not verified"
fi

# ---- NHC, in its own environment ----
# nhc_env OPTIONS... -> what NHC would see: "DIE <message>" and "rc N".
nhc_env() {
	env -i PATH=/sbin:/usr/sbin:/bin:/usr/bin NHC_FILE="$P/share/pagehop/nhc/pagehop.nhc" bash -c '
		set -f
		die() { echo "DIE $*"; return 1; }
		. "$NHC_FILE"
		check_pagehop "$@"
		echo "rc $?"' _ "$@"
}
# nhc_dies DESC WANT-GLOB OPTIONS...
nhc_dies() {
	local desc=$1 want=$2 out
	shift 2
	out=$(nhc_env "$@")
	case $out in
	"DIE 1 check_pagehop: "$want*"rc 1") pass "nhc, $desc: $(echo "$out" | head -n 1)" ;;
	*) fail "nhc, $desc: want 'DIE 1 check_pagehop: $want...', got: $out" ;;
	esac
}
stub() { printf '#!/bin/sh\n%s\n' "$1" >"$cmd" && chmod 755 "$cmd"; }
rm -f "$cmd"
nhc_dies "missing" "$cmd is missing or not executable" -u
nhc_dies "missing, without -u" "$cmd is missing or not executable"
stub 'echo "PAGEHOP OK - stub"'
chmod 644 "$cmd"
nhc_dies "not executable" "$cmd is missing or not executable"
stub 'echo "pagehop: error while loading shared libraries: libnuma.so.1" >&2; exit 127'
nhc_dies "exit 127" "$cmd check was not found or could not load (exit 127): pagehop: error while loading shared libraries" -u
stub 'exit 126'
nhc_dies "exit 126" "$cmd check could not be run (exit 126)"
stub 'kill -SEGV $$'
nhc_dies "killed by SIGSEGV" "$cmd check was killed by signal 11 (SIGSEGV)"
stub 'kill -KILL $$'
nhc_dies "killed by SIGKILL" "$cmd check was killed by signal 9 (SIGKILL)"
stub 'exit 4'
nhc_dies "exit 4" "$cmd check exited 4, not a verdict (0-3)"
stub 'exit 0'
nhc_dies "exit 0 without a verdict line" "$cmd check exited 0 without a verdict line"
stub 'echo "PAGEHOP OK - stub"'
expect "nhc, a stub's OK: quiet" "$(nhc_env -u)" "rc 0"
nhc_dies "PAGEHOP_CMD not absolute" "pagehop command 'pagehop' is not an absolute path" -p pagehop
# -p names another command; the stub at the default is not run.
expect "nhc -p: that command" "$(nhc_env -p /bin/false | head -n 1)" "DIE 1 check_pagehop: /bin/false check exited 1 without a verdict line"

# ---- the HealthCheckProgram, failures ----
cat >"$TMP/scontrol" <<'SC'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done >"$SCONTROL_LOG"
SC
chmod +x "$TMP/scontrol"
# hc [VAR=VALUE...]: as slurmd runs it, with no PATH of its own.
hc() {
	rm -f "$TMP/sc.log"
	env -i SCONTROL="$TMP/scontrol" SCONTROL_LOG="$TMP/sc.log" SLURMD_NODENAME=n17 PAGEHOP_BUDGET=3 "$@" \
		sh "$P/share/pagehop/slurm/pagehop-healthcheck.sh" 2>"$TMP/hc.err"
}
# hc_drains DESC WANT-REASON-GLOB [VAR=VALUE...]
hc_drains() {
	local desc=$1 want=$2 rc
	shift 2
	hc "$@" >/dev/null
	rc=$?
	if [ $rc -eq 1 ] && [ "$(head -n 3 "$TMP/sc.log" 2>/dev/null | paste -sd' ')" = "update nodename=n17 state=drain" ]; then
		case $(sed -n 4p "$TMP/sc.log") in
		"reason=PAGEHOP FAILED - "$want) pass "healthcheck, $desc: exit 1, $(sed -n 4p "$TMP/sc.log")" ;;
		*) fail "healthcheck, $desc: reason '$(sed -n 4p "$TMP/sc.log")', want 'PAGEHOP FAILED - $want'" ;;
		esac
	else
		fail "healthcheck, $desc: exit $rc, scontrol: $(cat "$TMP/sc.log" 2>/dev/null | paste -sd' '), stderr: $(cat "$TMP/hc.err")"
	fi
}
rm -f "$cmd"
hc_drains "missing" "$cmd is missing or not executable"
stub 'echo "pagehop: error while loading shared libraries: libnuma.so.1" >&2; exit 127'
hc_drains "exit 127" "pagehop check was not found or could not load (exit 127): pagehop: error while loading*"
stub 'kill -SEGV $$'
hc_drains "killed by SIGSEGV" "pagehop check was killed by signal 11 (SIGSEGV)"
stub 'exit 0'
hc_drains "exit 0 without a verdict line" "pagehop check exited 0 without a verdict line"
hc_drains "PAGEHOP not absolute" "PAGEHOP='pagehop' is not an absolute path" PAGEHOP=pagehop
stub 'kill -SEGV $$'
hc PAGEHOP_DRAIN_ON_FAILURE=0 >/dev/null
rc=$?
[ $rc -eq 1 ] && [ ! -e "$TMP/sc.log" ] && grep -q 'PAGEHOP FAILED - pagehop check was killed by signal 11' "$TMP/hc.err" &&
	pass "healthcheck, PAGEHOP_DRAIN_ON_FAILURE=0: not drained, exit 1, said: $(tail -n 1 "$TMP/hc.err")" ||
	fail "healthcheck, PAGEHOP_DRAIN_ON_FAILURE=0: exit $rc, scontrol: $(cat "$TMP/sc.log" 2>/dev/null), stderr: $(cat "$TMP/hc.err")"
stub 'echo "PAGEHOP WARNING - stub"; exit 1'
said=$(hc)
rc=$?
[ $rc -eq 0 ] && [ ! -e "$TMP/sc.log" ] && [ "$said" = "PAGEHOP WARNING - stub" ] && pass "healthcheck, WARNING: not drained, exit 0, said: $said" ||
	fail "healthcheck, WARNING: exit $rc, scontrol: $(cat "$TMP/sc.log" 2>/dev/null)"
hc PAGEHOP_DRAIN_ON="1 2" >/dev/null
expect "healthcheck, WARNING with PAGEHOP_DRAIN_ON='1 2': drained with the line" \
	"$(paste -sd' ' "$TMP/sc.log" 2>/dev/null)" "update nodename=n17 state=drain reason=PAGEHOP WARNING - stub"

# ---- the real command ----
if [ "$(id -u)" -ne 0 ]; then
	echo "the real check's part needs root: check measures on verified memory (pagemap)"
	finish
fi
cp "$PAGEHOP" "$cmd"
"$cmd" baseline --time 0.3 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
jq '(.figures[] | select(.kind == "latency" or .kind == "bandwidth") | .lower, .upper) |= null' \
	"$TMP/b.json" >"$TMP/fitting.json"
# Unmeetable: the fitting baseline with twice this machine's memory. Only
# the memory is out, so the verdict's line names it (a noisy 2 s bandwidth
# figure further out would otherwise take the line).
jq '(.figures[] | select(.figure == "mem_total") | .value, .ci_lo, .ci_hi) |= . * 2' "$TMP/fitting.json" >"$TMP/unmeetable.json"

nhc_dies "CRITICAL" "PAGEHOP CRITICAL - node " -b "$TMP/unmeetable.json" -t 5
expect "nhc, fitting: quiet" "$(nhc_env -b "$TMP/fitting.json" -t 5)" "rc 0"
nhc_dies "-u, UNKNOWN" "PAGEHOP UNKNOWN - " -b "$TMP/none.json" -t 5 -u
expect "nhc without -u, UNKNOWN: quiet" "$(nhc_env -b "$TMP/none.json" -t 5)" "rc 0"

said=$(hc PAGEHOP_BUDGET=5 PAGEHOP_BASELINE="$TMP/unmeetable.json")
expect "healthcheck, CRITICAL: exit" "$?" 0
expect "healthcheck, CRITICAL: scontrol update nodename=n17 state=drain (the check said: $said)" \
	"$(head -n 3 "$TMP/sc.log" 2>/dev/null | paste -sd' ')" "update nodename=n17 state=drain"
grep -q '^reason=PAGEHOP CRITICAL - node [0-9]* mem_total .*[0-9]% below baseline' "$TMP/sc.log" &&
	pass "healthcheck: $(sed -n 4p "$TMP/sc.log")" || fail "healthcheck reason: $(cat "$TMP/sc.log" 2>/dev/null)"
said=$(hc PAGEHOP_BUDGET=5 PAGEHOP_BASELINE="$TMP/fitting.json")
[ ! -e "$TMP/sc.log" ] && pass "healthcheck, fitting baseline: scontrol not called ($said)" ||
	fail "healthcheck, fitting: $(cat "$TMP/sc.log")"
finish
