# SPDX-License-Identifier: GPL-2.0-only
# test_report.sh - "pagehop report": a page from tests/data/report (a slit
# verdict from published data, a consistent slit verdict, a page-size sweep,
# scale, loaded, locks, c2c and prefetch runs of a 2-CPU machine, whose time blocks
# show in their provenance, and a scan of its node whose measured ranges
# are drawn, a point with its CI each, the one that strays in a series of
# its own), chase documents measured here with --percentiles --histogram,
# with --percentiles alone, with neither, and one whose figure has no
# distribution (each point of their distribution charts read back from
# the SVG against the document's histogram and percentiles, and the
# words under each chart the document's own, by report_check.py points),
# pagehop cxl documents judged from tests/data/cxl, whose charts' every
# point is read back from its pixel against the document's figure
# (report_check.py cxl), and a 4-node matrix with its SLIT
# (tests/data/slit), into a page that is valid HTML5
# (python3-html5lib, strict) whose every SVG parses as XML (xmllint); that
# Debian's chromium, headless, loads without a console error; whose DOM, as
# chromium dumps it, holds the heatmap cells, marked cells and curves the
# JSON documents call for (counted by report_check.py from the JSON, not
# from pagehop); whose screenshot is not blank.  Documents of an unknown
# kind or version are named "not shown".  Bad input (corrupt JSON, no
# input, an output that cannot be written): one line, exit 2, no file.
. "$(dirname "$0")/lib.sh"
root=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
data=$root/tests/data
py=python3
# Debian's python3 (python3-html5lib is for it), not another python3 on PATH.
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
check="$py $root/tests/host/report_check.py"
docs=("$data/slit/matrix-4node-cxl.json" "$data/report/slit-amd-6220.json"
	"$data/report/slit-cxl-4node.json" "$data/report/pages-4k-thp.json"
	"$data/report/scale-2cpu.json" "$data/report/loaded-2cpu.json" "$data/report/locks-2cpu.json"
	"$data/report/c2c-2cpu.json" "$data/report/prefetch-2cpu.json" "$data/report/scan-2cpu.json")
odd=("$data/report/future-version.json" "$data/report/unknown-kind.json")

# Bad input first: nothing may be left where the page would go.
printf '{"provenance": {"tool": "pagehop", ' >"$TMP/corrupt.json"
usage_error "corrupt JSON" report -o "$TMP/bad.html" "${docs[0]}" "$TMP/corrupt.json"
[ -e "$TMP/bad.html" ] && fail "corrupt JSON left $TMP/bad.html" || pass "corrupt JSON: no file"
usage_error "no input" report -o "$TMP/bad.html"
usage_error "no --output" report "${docs[0]}"
usage_error "output in a missing directory" report -o "$TMP/none/r.html" "${docs[0]}"
mkdir "$TMP/ro" && chmod 0555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
	usage_error "output in a read-only directory" report -o "$TMP/ro/r.html" "${docs[0]}"
fi
usage_error "output onto a directory" report -o "$TMP/ro" "${docs[0]}"
ls -A "$TMP/ro" "$TMP" | grep -q '\.html\|pagehop' && fail "a partial file left: $(ls -A "$TMP" "$TMP/ro")" ||
	pass "no partial file left"
# What the page does not show may hold anything valid: provenance.acpi, an object.
jq '.provenance.acpi = {SLIT: {oem_id: "ALASKA", oem_table_id: "A M I", oem_revision: 7}}' "${docs[0]}" >"$TMP/acpi.json"
"$PAGEHOP" report -o "$TMP/acpi.html" "$TMP/acpi.json" 2>"$TMP/acpi.err"
expect "a document with provenance.acpi: drawn" "$?" 0
# What it shows must be what it says: a host that is an object is refused.
jq '.provenance.host = {name: "h"}' "${docs[0]}" >"$TMP/host-object.json"
usage_error "provenance.host an object" report -o "$TMP/bad.html" "$TMP/host-object.json"
[ -e "$TMP/bad.html" ] && fail "provenance.host an object left $TMP/bad.html" || pass "provenance.host an object: no file"
echo "old" >"$TMP/keep.html"
"$PAGEHOP" report -o "$TMP/keep.html" "${docs[0]}" "$TMP/corrupt.json" 2>/dev/null
expect "a bad input leaves an existing page as it was" "$(cat "$TMP/keep.html")" old

# pagehop cxl documents judged from tests/data/cxl: all figures (good), a
# CDAT entry cxl_judge finds off (cdat_read_5x), no generic port figure
# and no latency from CPU node 1 (absent), nothing measured (unmeasured).
cx=$data/cxl
jq 'del(.cxl_explain[].generic_port) | del(.cxl_measured[1].lat_ns)' "$cx/good.json" >"$TMP/cxl-absent-in.json"
jq 'del(.cxl_measured)' "$cx/good.json" >"$TMP/cxl-unmeasured-in.json"
cxl_docs=()
for c in "good $cx/good.json 0" "off $cx/cdat_read_5x.json 1" "absent $TMP/cxl-absent-in.json 5" \
	"unmeasured $TMP/cxl-unmeasured-in.json 0"; do
	set -- $c
	"$PAGEHOP" cxl --input "$2" --noise 0.5 --format json >"$TMP/cxl-$1.json" 2>"$TMP/cxl.err"
	rc=$?
	expect "cxl --input $(basename "$2"): exit $3 ($(cat "$TMP/cxl.err"))" "$rc" "$3"
	cxl_docs+=("$TMP/cxl-$1.json")
done
docs+=("${cxl_docs[@]}")

# Distributions measured here, small and short: the host is shared.
dist=("$TMP/chase-dist.json" "$TMP/chase-pct.json" "$TMP/chase-plain.json" "$TMP/chase-why.json")
for a in "--percentiles --histogram" "--percentiles" ""; do
	o=${dist[0]}
	[ "$a" = --percentiles ] && o=${dist[1]}
	[ -z "$a" ] && o=${dist[2]}
	# shellcheck disable=SC2086
	"$PAGEHOP" chase --size 4M --pattern random,seq --time 0.3 $a --format json >"$o" 2>"$TMP/chase.err" ||
		fail "chase --size 4M ${a:-(no distribution)}: exit $?: $(tail -n 1 "$TMP/chase.err")"
done
# A figure without a distribution, as a run that could not take one writes
# it; and samples at or below 0 ns, in the bucket [min, 0] a histogram
# starts with when a run took less than the timer's cost.
jq '(.chase_dist[] | select(.pattern == "seq")) |= (with_entries(if (.key | test("^p[0-9.]+_ns$")) or .key == "samples"
	then .value = null else . end) | .why_not = "not measured in this test")
	| .chase_histogram |= [{pattern: "random", lo_ns: -1.5, hi_ns: 0, count: 3}] + map(select(.pattern != "seq"))' \
	"${dist[0]}" >"${dist[3]}"
expect "chase --percentiles --histogram: both tables" "$(jq -r '[(.chase_dist | length), (.chase_histogram | length > 0)] | join(" ")' "${dist[0]}")" "2 true"
expect "chase --percentiles: no histogram" "$(jq -r '[(.chase_dist | length), has("chase_histogram")] | join(" ")' "${dist[1]}")" "2 false"
expect "chase: no distribution" "$(jq -r '[has("chase_dist"), has("chase_histogram")] | join(" ")' "${dist[2]}")" "false false"
docs+=("${dist[@]}")

page=$TMP/report.html
"$PAGEHOP" report -o "$page" "${docs[@]}" "${odd[@]}" >"$TMP/out" 2>"$TMP/err"
expect "report: exit 0" "$?" 0
# Every point of the cxl charts read back from its pixel against the
# document's figure for its source, series and node; absent ones neither
# drawn nor unnamed (report_check.py cxl, from the JSON and the SVG alone).
$check cxl "$page" "${cxl_docs[@]}" >"$TMP/cxl.got" 2>&1
if grep -q 'BAD\|Traceback' "$TMP/cxl.got" || [ "$(grep -c ' points$' "$TMP/cxl.got")" -ne 8 ]; then
	fail "cxl charts against their documents: $(cat "$TMP/cxl.got")"
else
	pass "cxl charts: every point the documents' figure, none they lack: $(tr '\n' ',' <"$TMP/cxl.got")"
fi
expect "cxl: the entry cxl_judge finds off ringed" \
	"$(grep -A400 'cxl-off.json</h2>' "$page" | grep -c 'r="7" fill="none"')" 2
expect "cxl: no generic port figure: the caption says so, from the document" \
	"$(grep -A400 'cxl-absent.json</h2>' "$page" | grep -c 'GP of access0 and access1: none in cxl_explain, whose verdict is')" 2
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "report printed: $(cat "$TMP/out" "$TMP/err")" ||
	pass "report prints nothing"
grep -qi '<script\|https\?://[^"w]\|src=' "$page" && fail "the page fetches or runs something: $(grep -oi '<script[^>]*>\|https\?://[^" ]*\|src=[^ ]*' "$page" | grep -v www.w3.org | head -3)" ||
	pass "no script, nothing fetched"

# Each document's time block (its phases) and where it measured, in its provenance.
for f in scale loaded locks c2c prefetch; do
	j=$data/report/$f-2cpu.json
	m=$(printf 'measure %.3g s' "$(jq -r .time.measure_s "$j")")
	t=$(printf 'total %.3g s' "$(jq -r .time.total_s "$j")")
	dd=$(grep -A40 "$f-2cpu.json</h2>" "$page" | grep -m1 '<dt>time</dt>')
	case $dd in *"$m"*"$t"*) pass "$f: the time block shown: ${dd#*<dd>}" ;;
	*) fail "$f: no '$m ... $t' in the provenance: '$dd'" ;; esac
	dd=$(grep -A40 "$f-2cpu.json</h2>" "$page" | grep -m1 '<dt>measured</dt>')
	case $dd in *"page size: 4K"*) pass "$f: where it measured: ${dd#*<dd>}" ;;
	*) fail "$f: no page size in 'measured': '$dd'" ;; esac
done

# Whose machine each document measured, apart from where it was made: a
# slit of another host's table names that host; a baseline that measured 4K
# and THP says both, and its CPUs are a CPU list, not the model's name.
jq '.provenance.host = "not-this-host.example"' "$data/slit/matrix-4node-cxl.json" >"$TMP/other.json"
"$PAGEHOP" slit --input "$TMP/other.json" --format json >"$TMP/other-slit.json" 2>/dev/null
"$PAGEHOP" report -o "$TMP/origin.html" "$TMP/other-slit.json" "$data/report/baseline-4k-thp.json" \
	"$data/report/slit-amd-6220.json" 2>"$TMP/origin.err"
expect "origin report: exit 0" "$?" 0
dd() { grep -A40 "$1</h2>" "$TMP/origin.html" | grep -m1 "<dt>$2</dt>" | sed 's/.*<dd>//; s/<\/dd>.*//'; }
expect "another host's slit: measured on that host" "$(dd other-slit.json 'measured on' | cut -c1-21)" "not-this-host.example"
expect "another host's slit: analysed here" "$(dd other-slit.json 'analysed on')" "$(uname -n)"
expect "a slit without an origin: measured on unknown" "$(dd slit-amd-6220.json 'measured on' | cut -c1-7)" "unknown"
expect "baseline: measured where it was made" "$(dd baseline-4k-thp.json 'measured on')" "vm (measured and analysed in one run)"
expect "baseline of 4K and THP: both page sizes, CPUs a list" "$(dd baseline-4k-thp.json measured)" \
	"memory node: 0; page size: 4K, THP; CPUs: 0"

# Every point of the distribution charts, read back through the axes' labels.
$check points "$page" "${dist[@]}" >"$TMP/points"
if grep -q '^BAD' "$TMP/points"; then
	fail "distribution charts differ from the documents: $(grep '^BAD' "$TMP/points" | head -5)"
else
	while read -r line; do pass "$line"; done <"$TMP/points"
fi
expect "distribution charts checked" "$(grep -c 'points' "$TMP/points")" 5
expect "a chase without a distribution says it has no chart" \
	"$(grep -A40 'chase-plain.json</h2>' "$page" | grep -c 'has no chart')" 1

$py -c 'import html5lib' 2>/dev/null || skip_test "python3-html5lib missing (scripts/install-deps.sh check)"
command -v xmllint >/dev/null || skip_test "xmllint missing (libxml2-utils, scripts/install-deps.sh check)"
err=$($check html5 "$page" 2>&1) && pass "valid HTML5 (html5lib, strict)" || fail "not valid HTML5: $(echo "$err" | tail -n 1)"
mkdir "$TMP/svg"
$check svgs "$page" "$TMP/svg"
nsvg=$(ls "$TMP/svg" | wc -l)
[ "$nsvg" -gt 0 ] || fail "no SVG in the page"
bad=0
for s in "$TMP/svg"/*.svg; do
	xmllint --noout "$s" 2>"$TMP/xerr" || { bad=1; fail "$(basename "$s") is not XML: $(head -n 2 "$TMP/xerr")"; }
done
[ $bad -eq 0 ] && pass "each of $nsvg SVGs parses as XML (xmllint)"
for f in future-version unknown-kind; do
	grep -q "$f.json</h2>" "$page" && grep -A1 "$f.json</h2>" "$page" | grep -q 'not shown</b>: ' &&
		pass "$f: not shown: $(grep -A1 "$f.json</h2>" "$page" | sed -n 's/.*not shown<\/b>: \(.*\)<\/p>/\1/p')" ||
		fail "$f is not named as not shown"
done

command -v chromium >/dev/null || skip_test "chromium missing (scripts/install-deps.sh check)"
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" \
		--enable-logging=stderr --v=0 --window-size=1280,2400 "$@"
}
chrome --dump-dom about:blank >"$TMP/blank" 2>"$TMP/chrome.err" ||
	{ [ $_failed -eq 0 ] && skip_test "chromium cannot start here: $(grep -v dbus "$TMP/chrome.err" | tail -n 1)"; finish; }

# The console check must be able to fail: a page with a script error is seen.
printf '<!DOCTYPE html><title>t</title><script>no_such_function();</script>\n' >"$TMP/err.html"
chrome --dump-dom "file://$TMP/err.html" >/dev/null 2>"$TMP/err.log"
grep -q 'CONSOLE' "$TMP/err.log" && pass "a script error shows in chromium's log" ||
	fail "a script error does not show in chromium's log: the check below would see nothing"

chrome --dump-dom "file://$page" >"$TMP/dom.html" 2>"$TMP/load.log"
expect "chromium --dump-dom: exit" "$?" 0
grep 'CONSOLE' "$TMP/load.log" && fail "console messages loading the report" || pass "no console error"
$check expect "${docs[@]}" "${odd[@]}" >"$TMP/want"
$check dom "$TMP/dom.html" >"$TMP/got"
if diff "$TMP/want" "$TMP/got" >"$TMP/diff"; then
	pass "the DOM holds the charts the JSON calls for: $(sort "$TMP/got" | uniq -c | tr -s ' \n' ' ')"
else
	fail "charts in the DOM differ from the documents' (- want, + got): $(cat "$TMP/diff")"
fi
grep -q '^heatmap [0-9]* [1-9]' "$TMP/got" && pass "cells outside tolerance marked" ||
	fail "no heatmap marks a cell"

chrome --screenshot="$TMP/shot.png" "file://$page" >/dev/null 2>"$TMP/shot.log"
[ -s "$TMP/shot.png" ] || fail "no screenshot: $(grep -v dbus "$TMP/shot.log" | tail -n 2)"
read -r colours share < <($check png "$TMP/shot.png")
[ "${colours:-0}" -ge 20 ] && awk "BEGIN{exit !($share > 0.05)}" &&
	pass "screenshot not blank: $colours colours, $share non-white" ||
	fail "screenshot blank: $colours colours, $share non-white"
finish
