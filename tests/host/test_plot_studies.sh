# SPDX-License-Identifier: GPL-2.0-only
# test_plot_studies.sh - --plot for every study with a curve or a matrix:
# pages, scale, loaded, locks, prefetch, c2c, matrix, goaround, hops and chase (its
# distribution) each write an SVG that
# python's XML parser reads (plot_check.py), titled with the command, the
# host and what was measured where (memory node, page size, CPUs), with
# each chart's title and axis labels, and as many curves as the JSON of the
# same run has groups (counted with jq, not by pagehop); a heatmap shows
# the figure the JSON holds; matrix --percentiles --histogram its latency
# distribution and percentiles after the heatmaps.  A --plot path that
# cannot be written is refused first, with exit 2 and nothing written.
# Skips when Debian's gnuplot is missing.
. "$(dirname "$0")/lib.sh"
root=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

[ -x /usr/bin/gnuplot ] || skip_test "skip: /usr/bin/gnuplot missing (gnuplot-nox, scripts/install-deps.sh check)"
command -v jq >/dev/null || skip_test "skip: jq missing"
host=$(hostname)
Q=(--time 0.05 --ci 50)

# plot NAME ARGS...: run with --plot $TMP/NAME.svg --format json; the
# summary of the SVG in $TMP/NAME.txt, the JSON in $TMP/NAME.json.
plot() {
	local name=$1
	shift
	"$PAGEHOP" "$@" --plot "$TMP/$name.svg" --format json >"$TMP/$name.json" 2>"$TMP/$name.err"
	local rc=$?
	[ $rc -eq 0 ] || { fail "$name: exit $rc: $(tail -n 2 "$TMP/$name.err")"; return 1; }
	if ! $py "$root/tests/host/plot_check.py" "$TMP/$name.svg" >"$TMP/$name.txt" 2>"$TMP/$name.xerr"; then
		fail "$name: the SVG does not parse as XML: $(tail -n 1 "$TMP/$name.xerr")"
		return 1
	fi
	pass "$name: an SVG that parses as XML ($(head -n 1 "$TMP/$name.txt"))"
	jq -e '.notes | any(startswith("plot written to"))' "$TMP/$name.json" >/dev/null &&
		pass "$name: the document notes the plot" || fail "$name: no note 'plot written to' in the JSON"
}
# has NAME TEXT...: each TEXT is a text element of the SVG (or part of one).
has() {
	local name=$1 t
	shift
	for t in "$@"; do
		grep -qF -- "text: " "$TMP/$name.txt" && grep '^text: ' "$TMP/$name.txt" | grep -qF -- "$t" &&
			pass "$name: shows '$t'" || fail "$name: no text '$t' in the SVG"
	done
}
# curves NAME PANEL N: the panel draws N plot elements.
curves() {
	expect "$1: panel $2 draws the $3 curve(s) the JSON has" \
		"$(sed -n "s/^panel $2: \([0-9]*\) plots$/\1/p" "$TMP/$1.txt")" "$3"
}
where() {
	local name=$1 page=$2
	has "$name" "pagehop $name on $host" "page size: $page" "CPUs: "
}

if plot scale scale --size-per-thread 4M "${Q[@]}"; then
	where scale 4K
	has scale "memory node: $(jq -r '.scale[-1].node' "$TMP/scale.json")" "CPUs: $(jq -r '.scale[-1].cpus' "$TMP/scale.json")" \
		"aggregate bandwidth against threads, one curve per placement" "threads" "bandwidth, GB/s (median)"
	curves scale a "$(jq '[.scale[].placement] | unique | length' "$TMP/scale.json")"
fi
if plot locks locks "${Q[@]}"; then
	where locks 4K
	has locks "lock overhead against threads, one curve per lock kind" "threads" "overhead per acquisition, ns (median)"
	curves locks a "$(jq '[.locks[].kind] | unique | length' "$TMP/locks.json")"
	for k in $(jq -r '[.locks[].kind] | unique | .[]' "$TMP/locks.json"); do has locks "$k"; done
fi
if plot loaded loaded --loader-size 16M "${Q[@]}"; then
	where loaded 4K
	has loaded "chaser CPU $(jq -r '.loaded[0].chaser_cpu' "$TMP/loaded.json")" \
		"loaded latency against the loaders" "achieved bandwidth of the loaders, GB/s" "chase latency, ns (median)"
	curves loaded a "$(jq '[.loaded[].mix] | unique | length' "$TMP/loaded.json")"
fi
if plot pages pages --page-sizes 4k --min 16K --max 64K "${Q[@]}"; then
	where pages "one curve each"
	has pages "random chase latency against working set" "TLB-local chase latency against working set" \
		"read bandwidth against working set" "working set (bytes, log2 scale)" "latency per load, ns (median)"
	n=$(jq '[.pages[].page_size] | unique | length' "$TMP/pages.json")
	for p in a b c; do curves pages $p "$n"; done
fi
if plot prefetch prefetch --size 32M "${Q[@]}"; then
	where prefetch 4K
	has prefetch "load latency per access pattern" "access pattern" "bandwidth per kernel" "kernel" \
		$(jq -r '[.latency[].pattern] | unique | .[]' "$TMP/prefetch.json")
	curves prefetch a "$(jq '[.latency[].prefetchers_off] | unique | length' "$TMP/prefetch.json")"
	curves prefetch b "$(jq '[.bandwidth[].prefetchers_off] | unique | length' "$TMP/prefetch.json")"
fi
if plot c2c c2c "${Q[@]}"; then
	where c2c 4K
	v=$(jq -r '.c2c[0].lat_ns' "$TMP/c2c.json")
	has c2c "core-to-core latency" "CPU" "$(printf '%.4g' "$v")"
fi
if plot matrix matrix --page-size 4k "${Q[@]}"; then
	has matrix "pagehop matrix on $host" "each CPU node x memory node" "latency, ns" "CPU node" "memory node" \
		"$(printf '%.4g' "$(jq -r '.latency_ns.values[0][0]' "$TMP/matrix.json")")"
	expect "matrix: one heatmap per matrix of the JSON" "$(sed -n 's/^panels //p' "$TMP/matrix.txt")" \
		"$(jq '[.[] | objects | select(has("metric") and has("values"))] | length' "$TMP/matrix.json")"
fi
# With --percentiles --histogram, after the heatmaps: the distribution's
# CDF and its percentiles, a curve per cell each, named "cell R,C".
if plot matrix-dist matrix --page-size 4k --figures latency --percentiles --histogram "${Q[@]}"; then
	# A cell whose runs were not taken (why_not) has no curve: counted from the JSON.
	mapfile -t cells < <(jq -r '[.matrix_histogram[] | "cell \(.cpu_node),\(.mem_node)"] | unique | .[]' "$TMP/matrix-dist.json")
	has matrix-dist "latency distribution (cumulative), one curve per cell" "latency percentiles, one curve per cell" \
		"${cells[@]}"
	nh=$(jq '[.[] | objects | select(has("metric") and has("values"))] | length' "$TMP/matrix-dist.json")
	expect "matrix-dist: the heatmaps, then the CDF and the percentiles" "$(sed -n 's/^panels //p' "$TMP/matrix-dist.txt")" \
		$((nh + 2))
	letters=(a b c d e f g h i j)
	curves matrix-dist "${letters[nh]}" "${#cells[@]}"
	curves matrix-dist "${letters[nh + 1]}" "$(jq '[.matrix_dist[] | select(.p50_ns != null)] | length' "$TMP/matrix-dist.json")"
fi
# chase's only curves are its distribution's: the CDF and the percentiles,
# a curve per pattern; without --percentiles or --histogram, refused.
if plot chase-dist chase --size 4M --pattern random,seq --percentiles --histogram "${Q[@]}"; then
	has chase-dist "pagehop chase on $host" "page size: 4K" "CPUs: "
	# A pattern whose runs were not taken (why_not) has no curve: counted from the JSON.
	mapfile -t pats < <(jq -r '[.chase_histogram[].pattern] | unique | .[]' "$TMP/chase-dist.json")
	has chase-dist "latency distribution (cumulative), one curve per pattern" \
		"latency percentiles, one curve per pattern" "${pats[@]}"
	expect "chase-dist: the CDF and the percentiles" "$(sed -n 's/^panels //p' "$TMP/chase-dist.txt")" 2
	curves chase-dist a "${#pats[@]}"
	curves chase-dist b "$(jq '[.chase_dist[] | select(.p50_ns != null)] | length' "$TMP/chase-dist.json")"
fi
usage_error "chase --plot without a distribution" chase --size 4M --plot "$TMP/chase.svg"
[ -e "$TMP/chase.svg" ] && fail "chase --plot without a distribution wrote a plot" || pass "nothing plotted"
if plot goaround goaround --size-per-thread 4M "${Q[@]}"; then
	where goaround 4K
	has goaround "aggregate bandwidth per turn" "turn" "bandwidth, GB/s (median)"
	curves goaround a "$(jq '[.goaround[].kernel] | unique | length' "$TMP/goaround.json")"
fi
if plot hops hops --min 64K --max 128K --kernel read "${Q[@]}"; then
	where hops 4K
	# One chart per figure the JSON has (the chase and read here), one
	# curve per hop level in each, named "level N".
	mapfile -t levels < <(jq -r '[.hops[].level] | unique | .[] | "level \(.)"' "$TMP/hops.json")
	has hops "chase latency against working set, one curve per hop level" \
		"read bandwidth against working set, one curve per hop level" "${levels[@]}"
	expect "hops: one chart per figure of the JSON" "$(sed -n 's/^panels //p' "$TMP/hops.txt")" \
		"$(jq '[.hops[].figure] | unique | length' "$TMP/hops.json")"
	for p in a b; do curves hops $p "$(jq '[.hops[].level] | unique | length' "$TMP/hops.json")"; done
fi

# A bad --plot path: refused before measuring, for a command that gained --plot.
for c in scale locks loaded prefetch c2c matrix goaround hops chase; do
	usage_error "$c --plot into a missing directory" $c --plot "$TMP/none/p.svg"
done
usage_error "scale --plot with no .svg or .png" scale --plot "$TMP/p.pdf"
ln -s "$TMP/target" "$TMP/link.svg"
usage_error "locks --plot onto a symbolic link" locks --plot "$TMP/link.svg"
[ -e "$TMP/target" ] && fail "the link was followed" || pass "the link was not followed"
finish
