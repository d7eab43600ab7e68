# SPDX-License-Identifier: GPL-2.0-only
# test_nonroot.sh - run as nobody, a measuring command says what it lacks:
# root to read back where the memory is (exit 4, one line, empty stdout),
# root to grow a hugetlb pool with --reserve (exit 4), and 'ulimit -l'
# (RLIMIT_MEMLOCK) when it cannot lock its buffer.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root to run pagehop as nobody"
command -v setpriv >/dev/null || skip_test "setpriv (util-linux) not installed"
id nobody >/dev/null 2>&1 || skip_test "no user nobody"
group=$(id -gn nobody)
# A copy nobody can reach whatever the permissions of the build tree.
chmod 755 "$TMP"
cp "$PAGEHOP" "$TMP/pagehop"
chmod 755 "$TMP/pagehop"
as_nobody() { setpriv --reuid=nobody --regid="$group" --clear-groups "$@"; }

# nobody_fails DESC WANT_RC PATTERN ARGS...: exit WANT_RC, nothing on stdout,
# one line on stderr that matches PATTERN.
nobody_fails() {
	local desc=$1 want=$2 pat=$3 rc
	shift 3
	as_nobody "$TMP/pagehop" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq "$want" ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q -- "$pat" "$TMP/err"; then
		pass "$desc: exit $rc: $(cat "$TMP/err")"
	else
		fail "$desc: exit $rc (want $want), stdout $(wc -c <"$TMP/out") bytes, stderr: $(cat "$TMP/err")"
	fi
}

nobody_fails "chase as nobody" 4 "needs root" chase --size 16M --time 0.2
nobody_fails "stream as nobody" 4 "needs root" stream --size 16M --time 0.2 --kernel read

# Unverified, it measures; a buffer over RLIMIT_MEMLOCK is named as such.
as_nobody bash -c 'ulimit -l 1024 && exec "$@"' sh "$TMP/pagehop" chase --size 16M --time 0.2 \
	--allow-unverified --format json >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && grep "RLIMIT_MEMLOCK" "$TMP/err" | grep -q "ulimit -l: 1 MiB"; then
	pass "mlock over the limit: $(grep -i memlock "$TMP/err")"
else
	fail "mlock over the limit: exit $rc, stderr: $(cat "$TMP/err")"
fi

# --reserve with a pool that must grow: root is what is missing.
NR=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
FREE=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages
if [ -w "$NR" ]; then
	orig=$(cat "$NR")
	trap 'echo "$orig" >"$NR"; rm -rf "$TMP"' EXIT
	echo $((orig - $(cat "$FREE"))) >"$NR"
	nobody_fails "--reserve as nobody" 4 "needs root" \
		chase --size 16M --time 0.2 --page-size 2m --reserve --allow-unverified
	expect "--reserve as nobody: pool untouched" "$(cat "$NR")" $((orig - $(cat "$FREE")))
else
	echo "no writable 2 MiB pool on node 0: --reserve as nobody not tried"
fi
finish
