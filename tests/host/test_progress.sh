# SPDX-License-Identifier: GPL-2.0-only
# test_progress.sh - the progress line on stderr (--progress, --quiet, a
# terminal): with --progress one line per step, counted against the rows
# the JSON document holds (a second path: the document, not the progress
# code); stdout the same document with and without it (its keys and rows:
# the figures differ run to run); nothing without a terminal and without
# --progress, nor with --quiet; on a terminal (script(1)) one line
# rewritten, never wider than the terminal, cleared at the end; check
# unattended: nothing on a terminal unless asked; pages' per-step time; and
# the same for chase, stream, locks, loaded and survey.
. "$(dirname "$0")/lib.sh"

pages=(pages --page-sizes 4k --max 64K --time 0.05 --ci 50)
steps='^pages \[[0-9]+/[0-9]+\] '
# shape FILE: the document's sections, its rows and their columns, and the
# keys of its run section (what does not vary from run to run; the figures
# and the anomalies they show do).
shape() { jq -c '[keys, (.pages | length), (.pages | map(keys) | unique), (.run | keys)]' "$1"; }

"$PAGEHOP" "${pages[@]}" --progress -f json >"$TMP/p.json" 2>"$TMP/p.err" ||
	fail "pages --progress: exit $?: $(cat "$TMP/p.err")"
rows=$(jq '.pages | length' "$TMP/p.json")
expect "--progress: one line per working set, as many as the document's rows ($rows)" \
	"$(grep -cE "$steps" "$TMP/p.err")" "$rows"
expect "--progress: the steps counted 1..$rows of $rows" \
	"$(grep -E "$steps" "$TMP/p.err" | sed -E 's/^pages \[([0-9]+)\/([0-9]+)\].*/\1\/\2/' | tr '\n' ' ')" \
	"$(seq -s ' ' -f "%g/$rows" 1 "$rows") "
expect "--progress: the time left from the second step on" \
	"$(grep -E "$steps" "$TMP/p.err" | grep -c ', ~[0-9.]* \(s\|min\|h\) left$')" "$((rows - 1))"
expect "--progress: the last line says how many steps took how long" \
	"$(tail -n 1 "$TMP/p.err" | sed -E 's/[0-9]+\.[0-9] s$/T s/')" "pages: $rows of $rows steps in T s"
grep -q $'[\r\033]' "$TMP/p.err" && fail "--progress: escape codes in a log" || pass "--progress: no escape codes"
# Where the time went, per step: each row's step_s within the run's total,
# together no more than it (the time section, another clock reading).
expect "pages: every row's step_s positive, together within time.total_s" \
	"$(jq -r '[.pages[].step_s] as $s | ($s | length == '"$rows"' and all(. > 0)) and ($s | add) <= .time.total_s' "$TMP/p.json")" true

"$PAGEHOP" "${pages[@]}" -f json >"$TMP/n.json" 2>"$TMP/n.err" || fail "pages: exit $?: $(cat "$TMP/n.err")"
expect "no terminal, no --progress: nothing on stderr" "$(cat "$TMP/n.err")" ""
expect "the document is the same with --progress (keys and rows)" "$(shape "$TMP/p.json")" "$(shape "$TMP/n.json")"
"$PAGEHOP" "${pages[@]}" --progress --quiet >"$TMP/q.txt" 2>"$TMP/q.err" || fail "pages --quiet: exit $?"
expect "--progress --quiet: the last one wins, nothing on stderr" "$(cat "$TMP/q.err")" ""
"$PAGEHOP" "${pages[@]}" --progress >"$TMP/t.txt" 2>/dev/null
# The table's sweep rows, not its line count: the anomalies it lists
# (a line each) follow the figures, which differ run to run.
expect "the table has as many sweep rows with --progress as without" \
	"$(grep -c '^  4K ' "$TMP/t.txt")" "$(grep -c '^  4K ' "$TMP/q.txt")"
grep -qE "$steps|"$'[\r\033]' "$TMP/t.txt" && fail "--progress: progress on stdout" ||
	pass "--progress: nothing of it on stdout"

# A second study: prefetch's steps are its latency and bandwidth rows.
"$PAGEHOP" prefetch --size 1M --time 0.05 --ci 50 --progress -f json >"$TMP/f.json" 2>"$TMP/f.err" ||
	fail "prefetch --progress: exit $?: $(cat "$TMP/f.err")"
expect "prefetch --progress: one line per figure, as many as its latency and bandwidth rows" \
	"$(grep -cE '^prefetch \[[0-9]+/[0-9]+\] ' "$TMP/f.err")" "$(jq '(.latency | length) + (.bandwidth | length)' "$TMP/f.json")"

# The other measuring commands: one line per figure, counted against the rows
# of the document's main table; nothing on stderr without --progress.
# (survey's figures are fixed: it takes no --time.)
quick=(--time 0.05 --ci 50)
others=(
	"chase chase --size 1M --pattern random,tlb:64K ${quick[*]}"
	"stream stream --size 4M --kernel read,triad ${quick[*]}"
	"locks locks --kinds tas,ticket --threads 1,2 ${quick[*]}"
	"loaded loaded --mix read --delays 0 ${quick[*]}"
	"survey survey"
)
for o in "${others[@]}"; do
	read -r table cmd <<<"$o"
	# shellcheck disable=SC2086 # the command line is words
	"$PAGEHOP" $cmd --progress -f json >"$TMP/o.json" 2>"$TMP/o.err" ||
		fail "${cmd%% *} --progress: exit $?: $(cat "$TMP/o.err")"
	n=$(jq ".$table | length" "$TMP/o.json")
	expect "${cmd%% *} --progress: one line per figure, as many as its $table rows ($n)" \
		"$(grep -cE "^${cmd%% *} \[[0-9]+/$n\] " "$TMP/o.err")" "$n"
	expect "${cmd%% *} --progress: the last line says how many steps took how long" \
		"$(tail -n 1 "$TMP/o.err" | sed -E 's/[0-9]+\.[0-9] s$/T s/')" "${cmd%% *}: $n of $n steps in T s"
	# shellcheck disable=SC2086
	"$PAGEHOP" $cmd -f json >"$TMP/o2.json" 2>"$TMP/o2.err" || fail "${cmd%% *}: exit $?"
	expect "${cmd%% *}: no terminal, no --progress: nothing on stderr" "$(cat "$TMP/o2.err")" ""
done

if ! command -v script >/dev/null; then
	echo "skip: the terminal checks need script(1) (util-linux)"
	finish
fi
# On a terminal 40 columns wide: stdout to a file, stderr the terminal.
script -qec "stty cols 40; $PAGEHOP ${pages[*]} -f json >$TMP/tty.json" /dev/null >"$TMP/tty.log" 2>&1 ||
	fail "pages on a terminal: exit $?"
expect "terminal: the document as without one" "$(shape "$TMP/tty.json")" "$(shape "$TMP/n.json")"
# What the terminal was sent, the pty's line ends dropped.
tr -d '\n' <"$TMP/tty.log" >"$TMP/tty.txt"
grep -qF "$(printf '\r\033[Kpages [1/%s] 4K, working set' "$rows")" "$TMP/tty.txt" &&
	pass "terminal: the first step rewritten in place" || fail "terminal: no first step: $(od -c "$TMP/tty.txt" | head)"
expect "terminal: no line of its own per step" "$(grep -cE "$steps" "$TMP/tty.log")" 0
wide=$(tr '\r' '\n' <"$TMP/tty.txt" | sed 's/\x1b\[K//g' | awk 'length > 39' | head -n 1)
expect "terminal: no line wider than 39 of the 40 columns" "$wide" ""
case $(tail -c 4 "$TMP/tty.txt" | od -An -c | tr -d ' ') in
*'\r033[K') pass "terminal: the line cleared at the end" ;;
*) fail "terminal: not cleared at the end: $(tail -c 40 "$TMP/tty.txt" | od -c)" ;;
esac

# The same on a terminal for chase and stream: the line rewritten and
# cleared, and stdout what it is without a terminal: the CSV's columns and
# lines (its figures and the time in its first line differ run to run).
for cmd in "chase --size 1M --pattern random,tlb:64K" "stream --size 4M --kernel read,triad"; do
	name=${cmd%% *}
	script -qec "$PAGEHOP $cmd ${quick[*]} -f csv >$TMP/tty.csv" /dev/null >"$TMP/tty.log" 2>&1 ||
		fail "$name on a terminal: exit $?"
	# shellcheck disable=SC2086
	"$PAGEHOP" $cmd "${quick[@]}" -f csv >"$TMP/file.csv" 2>/dev/null || fail "$name: exit $?"
	expect "$name on a terminal: stdout the same lines and columns as without one" \
		"$(grep -v '^#' "$TMP/tty.csv" | head -n 1; wc -l <"$TMP/tty.csv")" \
		"$(grep -v '^#' "$TMP/file.csv" | head -n 1; wc -l <"$TMP/file.csv")"
	grep -q $'[\r\033]' "$TMP/tty.csv" && fail "$name on a terminal: escape codes on stdout" ||
		pass "$name on a terminal: no escape codes on stdout"
	tr -d '\n' <"$TMP/tty.log" >"$TMP/tty.txt"
	grep -qF "$(printf '\r\033[K%s [1/2] ' "$name")" "$TMP/tty.txt" &&
		pass "$name on a terminal: the first step shown" || fail "$name on a terminal: no first step"
	case $(tail -c 4 "$TMP/tty.txt" | od -An -c | tr -d ' ') in
	*'\r033[K') pass "$name on a terminal: the line cleared at the end" ;;
	*) fail "$name on a terminal: not cleared at the end: $(tail -c 40 "$TMP/tty.txt" | od -c)" ;;
	esac
done

# check runs unattended: nothing on a terminal without --progress.
script -qec "$PAGEHOP check --budget 2 >$TMP/check.txt" /dev/null >"$TMP/check.log" 2>&1
grep -qE 'check \[[0-9]+/' "$TMP/check.log" && fail "check on a terminal shows progress unasked" ||
	pass "check on a terminal: no progress without --progress"
finish
