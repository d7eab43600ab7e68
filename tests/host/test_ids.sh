# SPDX-License-Identifier: GPL-2.0-only
# test_ids.sh - node and CPU ids beyond the machine, in every option of every
# command that takes a node or CPU list: refused with exit 2, nothing on
# stdout, one line on stderr naming the option and the id.  libnuma keeps
# a list's ids in an int, so that 4294967296 (2^32) would be node 0 and
# 9223372036854775808 (2^63) node 0 or CPU 0: each must be refused, not
# run on node 0.  The options are listed here by hand and looked up in
# each command's --help, so that a renamed one is noticed.
. "$(dirname "$0")/lib.sh"

# command option...: every option of each command taking a node or CPU list.
cases=(
	"stream --membind --interleave --cpunodebind --physcpubind"
	"chase --membind --interleave --cpunodebind --physcpubind"
	"scale --membind --interleave --cpunodebind"
	"matrix --membind --cpunodebind"
	"pages --membind --physcpubind"
	"prefetch --membind --physcpubind"
	"hops --physcpubind"
	"goaround --cpunodebind"
	"c2c --membind --cpus"
	"locks --membind --cpus"
	"loaded --membind --loader-membind --chaser --loaders"
)
n=0
for c in "${cases[@]}"; do
	read -r cmd opts <<<"$c"
	"$PAGEHOP" help "$cmd" >"$TMP/help" 2>&1
	for opt in $opts; do
		grep -q -- "  $opt " "$TMP/help" || { fail "$cmd: no $opt in its --help"; continue; }
		for id in 4294967296 9223372036854775808 0,4294967296 0-4294967296; do
			"$PAGEHOP" "$cmd" "$opt" "$id" --time 0.1 >"$TMP/out" 2>"$TMP/err"
			rc=$?
			big=${id##*[,-]}
			if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
				grep -qF -- "$opt" "$TMP/err" && grep -qE -- "(node|CPU) $big is out of range" "$TMP/err"; then
				n=$((n + 1))
			else
				fail "$cmd $opt $id: exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr: $(head -c 300 "$TMP/err")"
			fi
		done
	done
done
[ $n -gt 0 ] && pass "$n cases refused, naming the option and the id, e.g. $(cat "$TMP/err")"

# An id just past the machine's possible ones is refused as out of range too.
last=$(sed 's/.*[-,]//' /sys/devices/system/node/possible)
"$PAGEHOP" chase --membind $((last + 1)) --time 0.1 >"$TMP/out" 2>"$TMP/err"
rc=$?
expect "chase --membind $((last + 1)) (possible nodes: $(cat /sys/devices/system/node/possible)): exit, stdout bytes" \
	"$rc $(wc -c <"$TMP/out")" "2 0"
grep -q "node $((last + 1)) is out of range" "$TMP/err" && pass "said: $(cat "$TMP/err")" || fail "said: $(cat "$TMP/err")"
finish
