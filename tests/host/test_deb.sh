# SPDX-License-Identifier: GPL-2.0-only
# test_deb.sh - "make deb" builds pagehop and pagehop-dkms (in a copy of the
# tree, so nothing is written beside it), lintian reports no error, the
# package's systemd unit, timer, Slurm and NHC files name /usr/bin/pagehop
# and the package holds it (read from the package, dpkg-deb -x), both
# install with dpkg -i: pagehop --version from /usr/bin, the unit passes
# systemd-analyze verify, the man page and the bash completion in place, and "dkms status" shows the module
# installed for every kernel here that has headers; dpkg --purge then
# leaves nothing: no file of either package, no /usr/src/pagehop-API, no
# dkms tree, no pagehop.ko under /lib/modules.  Skips, with the reason,
# without the packaging tools, without root, or when pagehop is already
# installed as a package or in dkms (this test must not remove it).
. "$(dirname "$0")/lib.sh"
root=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}

[ "$(id -u)" -eq 0 ] || skip_test "skip: installing packages needs root"
for t in dpkg-buildpackage dh dh_dkms lintian dkms fakeroot; do
	command -v $t >/dev/null || skip_test "skip: $t missing (debhelper, dh-dkms, lintian, dkms, fakeroot: scripts/install-deps.sh check)"
done
dpkg-query -W -f='${Status}' pagehop pagehop-dkms 2>/dev/null | grep -q 'installed' &&
	skip_test "skip: a pagehop package is installed already"
[ -n "$(dkms status pagehop 2>/dev/null)" ] && skip_test "skip: dkms has pagehop already: $(dkms status pagehop | head -n 1)"
api=$(sed -n 's/^#define PAGEHOP_API_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$root/include/uapi/pagehop.h")
ver=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)

# What dpkg-buildpackage writes beside the tree it builds: files named
# after the source or a binary package, then "_" (pagehop_VER_ARCH.deb,
# .buildinfo, .changes, .dsc, .tar.*, pagehop-dkms_VER_all.deb, -dbgsym
# packages).  Only those names are compared: other processes may change
# the rest of the parent directory while this test runs.
beside() { (cd "$root/.." && ls -d pagehop_* pagehop-dkms_* pagehop-dbgsym_* 2>/dev/null | sort); }
before=$(beside)
t0=$(date +%s)
make -C "$root" --no-print-directory BUILD="$TMP/b" deb >"$TMP/build.log" 2>&1 ||
	{ fail "make deb: $(tail -n 20 "$TMP/build.log")"; finish; }
expect "nothing written beside the tree (pagehop_*, pagehop-dkms_*, pagehop-dbgsym_* in $(cd "$root/.." && pwd))" \
	"$(beside)" "$before"
cmd=$TMP/b/deb/pagehop_${ver}_amd64.deb
dkmsdeb=$TMP/b/deb/pagehop-dkms_${ver}_all.deb
[ -f "$cmd" ] && [ -f "$dkmsdeb" ] && pass "make deb in $(($(date +%s) - t0))s: $(cd "$TMP/b/deb" && ls *.deb | tr '\n' ' ')" ||
	{ fail "make deb left $(ls "$TMP/b/deb")"; finish; }
lintian "$TMP/b/deb/pagehop_${ver}_amd64.changes" >"$TMP/lintian" 2>&1
grep -q '^E:' "$TMP/lintian" && fail "lintian errors: $(grep '^E:' "$TMP/lintian" | head -n 5)" ||
	pass "lintian: no error ($(grep -c '^W:' "$TMP/lintian") warnings)"

# The package's contrib files name paths the package has: read from the
# extracted package, not from the tree.
x=$TMP/x
dpkg-deb -x "$cmd" "$x"
unit=$x/usr/share/pagehop/prometheus/pagehop-check.service
exec=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit" 2>/dev/null)
[ -n "$exec" ] && [ -x "$x$exec" ] && pass "the package's unit runs $exec, which the package holds" ||
	fail "the package's unit runs '${exec:-nothing}': not in the package ($(dpkg-deb -c "$cmd" | grep -c bin/) bin entries)"
expect "the unit is made for /usr" "$exec" /usr/bin/pagehop
timer=$(sed -n 's/^#.* root \(\/[^ ]*\) check .*/\1/p' "$x/usr/share/pagehop/prometheus/pagehop-check.timer")
expect "the timer's cron example runs the package's pagehop" "$timer" /usr/bin/pagehop
expect "the HealthCheckProgram's default command" \
	"$(sed -n 's/^PAGEHOP=${PAGEHOP:-\(.*\)}$/\1/p' "$x/usr/share/pagehop/slurm/pagehop-healthcheck.sh")" /usr/bin/pagehop
expect "the fleet job's default command" \
	"$(sed -n 's/^PAGEHOP=${PAGEHOP:-\(.*\)}$/\1/p' "$x/usr/share/pagehop/slurm/pagehop-fleet.sbatch")" /usr/bin/pagehop
expect "NHC's default command" \
	"$(sed -n 's/^PAGEHOP_CMD="${PAGEHOP_CMD:-\(.*\)}"$/\1/p' "$x/usr/share/pagehop/nhc/pagehop.nhc")" /usr/bin/pagehop
hcp=$(sed -n 's/^#   HealthCheckProgram=//p' "$x/usr/share/pagehop/slurm/pagehop-healthcheck.sh")
[ -n "$hcp" ] && [ -x "$x$hcp" ] && pass "the slurm.conf example names $hcp, executable in the package" ||
	fail "the slurm.conf example names '$hcp': not an executable of the package"
left=$(grep -rln '@[A-Z_]*@\|/usr/local' "$x/usr/share/pagehop")
[ -z "$left" ] && pass "no placeholder or /usr/local path in the package's contrib files" || fail "in the package: $left"

kernels=()
for d in /lib/modules/*/build; do
	[ -d "$d" ] && kernels+=("$(basename "$(dirname "$d")")")
done
cleanup() {
	dpkg --purge pagehop pagehop-dkms >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
export mok_signing_key=$TMP/mok.key mok_certificate=$TMP/mok.pub
t0=$(date +%s)
if ! dpkg -i "$cmd" "$dkmsdeb" >"$TMP/install.log" 2>&1; then
	fail "dpkg -i: $(tail -n 20 "$TMP/install.log")"
	finish
fi
pass "dpkg -i pagehop pagehop-dkms in $(($(date +%s) - t0))s (dkms builds for ${#kernels[@]} kernels)"
expect "pagehop --version" "$(/usr/bin/pagehop --version)" "pagehop ${ver%%-*}"
[ -f /usr/share/man/man1/pagehop.1.gz ] && pass "man page installed" || fail "no /usr/share/man/man1/pagehop.1.gz"
grep -q 'complete -F _pagehop pagehop' /usr/share/bash-completion/completions/pagehop 2>/dev/null &&
	pass "bash completion installed" || fail "no bash completion"
# Installed: systemd reads the unit as the package ships it.
if ! command -v systemd-analyze >/dev/null; then
	echo "systemd-analyze is not installed: the unit is not verified"
elif systemd-analyze verify /usr/share/pagehop/prometheus/pagehop-check.service >"$TMP/sa" 2>&1; then
	pass "systemd-analyze verify: the installed unit"
else
	fail "systemd-analyze verify: $(cat "$TMP/sa")"
fi
for k in "${kernels[@]}"; do
	st=$(dkms status "pagehop/$api" -k "$k" 2>/dev/null)
	echo "$st" | grep -q ": installed" && pass "dkms status: $st" ||
		fail "dkms status for $k: '$st' ($(tail -n 5 "$TMP/install.log"))"
done

t0=$(date +%s)
dpkg --purge pagehop pagehop-dkms >"$TMP/purge.log" 2>&1 && pass "dpkg --purge in $(($(date +%s) - t0))s" || fail "dpkg --purge: $(tail -n 5 "$TMP/purge.log")"
left=$(dpkg-query -W -f='${Status} ${Package}\n' pagehop pagehop-dkms 2>/dev/null | grep -v '^unknown ok not-installed\|^ *$')
[ -z "$left" ] && pass "purged: dpkg knows neither package" || fail "dpkg still has: $left"
for p in /usr/bin/pagehop /usr/share/man/man1/pagehop.1.gz /usr/share/pagehop /usr/share/doc/pagehop \
	/usr/share/bash-completion/completions/pagehop /usr/src/pagehop-$api /var/lib/dkms/pagehop; do
	[ -e "$p" ] && fail "left behind: $p"
done
ko=$(find /lib/modules -name 'pagehop.ko*' -path '*updates/dkms*' 2>/dev/null)
[ -z "$ko" ] && pass "nothing left: no file, no dkms tree, no module" || fail "modules left: $ko"
[ -z "$(dkms status pagehop 2>/dev/null)" ] || fail "dkms still lists: $(dkms status pagehop)"
finish
