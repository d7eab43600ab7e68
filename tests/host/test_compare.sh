# SPDX-License-Identifier: GPL-2.0-only
# test_compare.sh - pagehop compare on the synthetic fleet of
# tests/data/compare (make.py): the host made to stray is ranked, with its
# figure, exit 1; the 20 normal ones alone give exit 0; operands mix with
# options; bad usage is exit 2 in one line.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip_test "needs jq"
D=$PAGEHOP_ROOT/tests/data/compare

"$PAGEHOP" compare --format json --k 4 "$D" >"$TMP/c.json" 2>"$TMP/err"
expect "a host strays: exit 1" "$?" 1
expect "the one made to stray, ranked first, with its figure" \
	"$(jq -r '.hosts[] | "\(.rank) \(.host) \(.figures)"' "$TMP/c.json")" "1 stray node 1 bandwidth_triad -21%"
"$PAGEHOP" compare "$D"/host*.json -f json >"$TMP/c.json" 2>"$TMP/err"
expect "20 normal hosts: exit 0" "$?" 0
expect "20 normal hosts: none strays" "$(jq '.hosts | length' "$TMP/c.json")" 0
usage_error "no operand" compare --k 4
usage_error "a missing file" compare "$TMP/none.json"
usage_error "--k not a number" compare --k x "$D"
finish
