# SPDX-License-Identifier: GPL-2.0-only
# test_completion.sh - the bash completion ('pagehop --bash-completion'),
# driven in bash through COMP_WORDS and COMP_CWORD as bash itself calls it,
# against what --help prints (a second path: the usage text, not the
# script's tables): every subcommand offered; for each command with
# --page-size exactly the sizes its --help lists; each command's options;
# --format's values; chase's patterns as a list; node ids from sysfs.  And
# the script loads under bash-completion and registers for pagehop.
. "$(dirname "$0")/lib.sh"

"$PAGEHOP" --bash-completion >"$TMP/c.bash" 2>"$TMP/err"
expect "--bash-completion: exit 0, no message" "$?:$(cat "$TMP/err")" "0:"
bash -n "$TMP/c.bash" && pass "the script parses" || fail "the script does not parse"

# comp WORD...: what completing the last word offers, one per line, sorted.
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}; _pagehop; printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/c.bash" "$@" | sort
}
words() { tr ' ' '\n' | grep -v '^$' | sort; }

want=$("$PAGEHOP" --help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" {print $1}' | sort)
expect "subcommands: those --help lists" "$(comp pagehop "" | grep -v '^-')" "$want"
expect "'pagehop re' offers report" "$(comp pagehop re)" "report"
expect "'pagehop help ch' offers the commands" "$(comp pagehop help ch)" "$(printf 'chase\ncheck')"

n=0 optbad=0
for cmd in $(echo "$want" | grep -vx help); do
	help=$("$PAGEHOP" "$cmd" --help)
	opts=$(echo "$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	# The options --help names in its option lines (--help itself included).
	declared=$(echo "$help" | sed -nE 's/^  (-[a-zA-Z], )?(--[a-z][a-z0-9-]*).*/\2/p' | sort -u)
	got=$(comp pagehop "$cmd" --)
	missing=$(comm -23 <(echo "$declared") <(echo "$got"))
	extra=$(comm -13 <(echo "$opts") <(echo "$got"))
	[ -z "$missing$extra" ] || { optbad=1; fail "$cmd: options offered differ from --help: missing '$missing', not in --help '$extra'"; }
	sizes=$(echo "$help" | sed -nE 's/^  --page-size ([a-z0-9|]+).*/\1/p')
	if [ -n "$sizes" ]; then
		expect "$cmd --page-size: the sizes --help lists ($sizes)" \
			"$(comp pagehop "$cmd" --page-size "")" "$(echo "$sizes" | tr '|' ' ' | words)"
		n=$((n + 1))
	fi
done
[ $n -ge 4 ] && pass "--page-size checked on $n commands" || fail "--page-size found on $n commands only"
[ $optbad -eq 0 ] && pass "each command's options: those its --help lists"
expect "--format: table csv json" "$(comp pagehop info --format "")" "$(printf 'csv\njson\ntable')"
expect "-f: the same" "$(comp pagehop info -f j)" "json"
expect "--pattern r: random" "$(comp pagehop chase --pattern r)" "random"
expect "--pattern random,s: the list's last element" "$(comp pagehop chase --pattern random,s)" \
	"$(printf 'random,seq\nrandom,stride:N')"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//' | sort)
expect "--membind: the node ids in sysfs" "$(comp pagehop stream --membind "")" "$nodes"
expect "--page-sizes 4k,: a second size" "$(comp pagehop pages --page-sizes 4k,1)" "4k,1g"
: >"$TMP/in.json"
expect "report's operand: file names" "$(cd "$TMP" && comp pagehop report -o r.html i)" "in.json"

if [ -r /usr/share/bash-completion/bash_completion ]; then
	reg=$(bash -c '. /usr/share/bash-completion/bash_completion; . "$1"; complete -p pagehop' _ "$TMP/c.bash" 2>&1)
	expect "registered under bash-completion" "$reg" "complete -F _pagehop pagehop"
fi
finish
