# SPDX-License-Identifier: GPL-2.0-only
# test_chase_walkers.sh - every chase walker (kernels/chase.c, one per chain
# count K) keeps its K chain heads in registers: read back from the object
# code the compiler made, not from the source.  In each walker's loops no
# instruction may touch the stack (%rsp, or %rbp when it is a frame
# pointer), and the main loop must be K x 4 hops, each one load
# "mov (%reg),%reg" from and into the same register.  A head kept on the
# stack adds a store and a load to every hop: in L1 it doubles the time per
# load (0.37 -> 0.74 ns from 3 to 4 chains in the gcc 12 build before this
# test).  --chains takes exactly the counts that have such a walker.
. "$(dirname "$0")/lib.sh"
obj=$(dirname "$PAGEHOP")/obj/kernels/chase.o
[ -f "$obj" ] || skip_test "no $obj next to the binary"
command -v objdump >/dev/null || skip_test "no objdump"
max=$(sed -n 's/^#define CHASE_MAX_CHAINS[[:space:]]*\([0-9]*\).*/\1/p' "$PAGEHOP_ROOT/kernels/chase.h")
[ -n "$max" ] || fail "no CHASE_MAX_CHAINS in kernels/chase.h"

objdump -d --no-show-raw-insn "$obj" >"$TMP/dis" || fail "objdump $obj"
# One line per instruction of a walker: "FUNC ADDR OP ARGS" (ADDR decimal).
awk '/^[0-9a-f]+ <walk_[0-9]+>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
	/^$/ { f = "" }
	f != "" && /^ +[0-9a-f]+:\t/ {
		split($0, part, "\t"); a = part[1]; gsub(/[ :]/, "", a)
		n = 0; for (i = 1; i <= length(a); i++) n = n * 16 + index("0123456789abcdef", substr(a, i, 1)) - 1
		ins = part[2]; sub(/#.*/, "", ins); sub(/ +$/, "", ins)
		op = ins; sub(/ .*/, "", op); args = ins; sub(/^[^ ]+ */, "", args)
		print f, n, op, args
	}' "$TMP/dis" >"$TMP/ins"
check_walker() {	# K -> one report line; status 1 if the walker spills or is missing
	awk -v k="$1" '
	function hex(s,   i, n) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
	$1 == "walk_" k { n++; addr[n] = $2; op[n] = $3; args[n] = $4
		if ($3 == "mov" && $4 == "%rsp,%rbp") frame = 1 }
	END {
		if (!n) { print "FAIL: walk_" k ": not in the object code"; exit 1 }
		# A loop: a jump back to an address at or before the jump.
		for (i = 1; i <= n; i++)
			if (op[i] ~ /^j/ && split(args[i], t, " ") >= 1 && hex(t[1]) <= addr[i]) {
				nl++; lo[nl] = hex(t[1]); hi[nl] = addr[i]
			}
		if (!nl) { print "FAIL: walk_" k ": no loop"; exit 1 }
		stack = frame ? "\\(%r[sb]p" : "\\(%rsp"
		main = 0
		for (l = 1; l <= nl; l++) {
			hops = 0
			for (i = 1; i <= n; i++) {
				if (addr[i] < lo[l] || addr[i] > hi[l]) continue
				if (args[i] ~ stack) { print "FAIL: walk_" k ": its loop goes through the stack: " op[i] " " args[i]; exit 1 }
				# A hop: "mov (%reg),%reg", the same register.
				if (op[i] == "mov" && split(args[i], r, ",") == 2 && (r[1] == "(" r[2] ")" || r[1] == "0x0(" r[2] ")")) hops++
			}
			if (hops > main) main = hops
		}
		if (main != 4 * k) { print "FAIL: walk_" k ": " main " register-to-itself loads in the main loop, want " 4 * k; exit 1 }
		print "ok: walk_" k ": " main " hops in registers, no stack access in its loops"
	}' "$TMP/ins"
}
rc=0
for ((k = 1; k <= ${max:-0}; k++)); do check_walker $k >>"$TMP/report" || rc=1; done
cat "$TMP/report"
[ $rc -eq 0 ] && pass "every walker 1..$max keeps its heads in registers" || fail "a walker spills (above)"

# The option takes exactly 1..CHASE_MAX_CHAINS.
"$PAGEHOP" chase --chains "$max" --size 64K --time 0.02 --pattern seq --format csv >/dev/null 2>"$TMP/err" &&
	pass "--chains $max accepted" || fail "--chains $max: $(cat "$TMP/err")"
usage_error "--chains $((max + 1)) refused" chase --chains $((max + 1)) --size 64K
"$PAGEHOP" chase --help | grep -q "(1-$max)" && pass "chase --help says 1-$max" ||
	fail "chase --help does not say (1-$max)"
finish
