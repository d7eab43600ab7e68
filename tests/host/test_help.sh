# SPDX-License-Identifier: GPL-2.0-only
# test_help.sh - each command's --help lists exactly what it takes, with the
# defaults it really uses.  For survey, info, list, chase and stream:
#   - every option --help names is taken (never "unknown option");
#   - every common measuring option --help does not name is refused with a
#     reason of its own (one line, exit 2), not as an unknown option;
#   - each "(default X)" --help states is what a run without the option
#     does, read back from the run's JSON (the second path): size, page
#     size, threads, time, CI, pattern, chains, seed, kernels, ISA, format.
. "$(dirname "$0")/lib.sh"

COMMON=(size page-size backend membind interleave cpunodebind physcpubind threads time ci reserve
	allow-unverified)

# opts CMD: the long options CMD --help names, one per line.
opts() { "$PAGEHOP" "$1" --help | grep -oE '^ +(-[a-z], )?--[a-z-]+' | sed 's/.*--//' | sort -u; }
# default CMD OPT: what CMD --help says OPT defaults to ("(default X)" or "(default: X)").
default() {
	"$PAGEHOP" "$1" --help | awk -v o="--$2" '
		on && ($1 ~ /^-/ || NF == 0) { exit }
		$1 == o || $2 == o { on = 1 }
		on && /\(default:? / { sub(/.*\(default:? /, ""); sub(/\)$/, ""); print; exit }'
}

for cmd in survey info list chase stream; do
	taken=$(opts "$cmd")
	[ -n "$taken" ] || fail "$cmd --help names no option"
	for o in $taken; do
		[ "$o" = help ] && continue
		"$PAGEHOP" "$cmd" "--$o" >/dev/null 2>"$TMP/err" </dev/null &
		pid=$!
		sleep 0.3
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		grep -q "unknown option '--$o'" "$TMP/err" && fail "$cmd --help names --$o, which $cmd does not take"
	done
	for o in "${COMMON[@]}"; do
		echo "$taken" | grep -qx -- "$o" && continue
		"$PAGEHOP" "$cmd" "--$o" 1 >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
			grep -q "^pagehop $cmd: --$o: " "$TMP/err"; then
			pass "$cmd refuses --$o: $(cat "$TMP/err")"
		else
			fail "$cmd --$o, not in its --help: exit $rc, $(cat "$TMP/err")"
		fi
	done
done

# The format: table unless --format says otherwise.
for cmd in info list; do
	expect "$cmd --help: default format" "$(default "$cmd" format)" table
	"$PAGEHOP" "$cmd" | head -n1 | grep -q '^[a-z].*:$' && pass "$cmd prints a table by default" ||
		fail "$cmd default output: $("$PAGEHOP" "$cmd" | head -n1)"
done

# size_kib SIZE: "1G" -> 1048576.
size_kib() { numfmt --from=iec "${1}" | awk '{print $1 / 1024}'; }

# chase: every default stated, against a run without options.
"$PAGEHOP" chase --format json >"$TMP/c.json" 2>"$TMP/err" || fail "chase: $(cat "$TMP/err")"
expect "chase --size default" "$(jq -r '.chase[0].size_KiB' "$TMP/c.json")" "$(size_kib "$(default chase size)")"
expect "chase --page-size default" "$(jq -r '.chase[0].page_size | ascii_downcase' "$TMP/c.json")" "$(default chase page-size)"
expect "chase --threads default" "$(jq -r '.chase[0].threads' "$TMP/c.json")" "$(default chase threads)"
expect "chase --time default" "$(jq -r '.run.time_budget_s' "$TMP/c.json")" "$(default chase time)"
expect "chase --ci default" "$(jq -r '.run.ci_target_pct' "$TMP/c.json")" "$(default chase ci)"
expect "chase --pattern default" "$(jq -r '[.chase[].pattern] | join(",")' "$TMP/c.json")" "$(default chase pattern)"
expect "chase --chains default" "$(jq -r '.chase[0].chains' "$TMP/c.json")" "$(default chase chains)"
expect "chase --seed default" "$(jq -r '.chase_method.seed' "$TMP/c.json")" "$(default chase seed)"
expect "chase --backend default" "$(default chase backend)" auto
expect "chase --format default" "$(default chase format)" table

# stream: the same, with one thread per core and every kernel at the ISA auto chooses.
"$PAGEHOP" stream --format json >"$TMP/s.json" 2>"$TMP/err" || fail "stream: $(cat "$TMP/err")"
cores=$(lscpu -p=core | grep -v '^#' | sort -u | wc -l)
expect "stream --size default" "$(jq -r '.stream[0].size_KiB' "$TMP/s.json")" "$(size_kib "$(default stream size)")"
expect "stream --page-size default" "$(jq -r '.stream[0].page_size | ascii_downcase' "$TMP/s.json")" "$(default stream page-size)"
expect "stream --threads default: one per core ($cores)" "$(jq -r '.stream[0].threads' "$TMP/s.json")" "$cores"
default stream threads | grep -q 'one per core' && pass "stream --help: one thread per core" ||
	fail "stream --threads default: '$(default stream threads)'"
expect "stream --time default" "$(jq -r '.run.time_budget_s' "$TMP/s.json")" "$(default stream time)"
expect "stream --ci default" "$(jq -r '.run.ci_target_pct' "$TMP/s.json")" "$(default stream ci)"
"$PAGEHOP" list --format json >"$TMP/l.json"
expect "stream --kernel default: every kernel" "$(jq -r '[.stream[].kernel] | join(",")' "$TMP/s.json")" \
	"$(jq -r '[.stream_ops[].kernel] | join(",")' "$TMP/l.json")"
expect "stream --isa default" "$(default stream isa)" auto
# What auto chooses is test_isa_auto.sh's; here, that the default is it.
expect "stream --isa default: each kernel runs what list marks auto" \
	"$(jq -r '[.stream[] | "\(.kernel) \(.isa)"] | join(",")' "$TMP/s.json")" \
	"$(jq -r '[.stream_auto[] | select(.nt | not) | "\(.kernel) \(.isa)"] | join(",")' "$TMP/l.json")"
finish
