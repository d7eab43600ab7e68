#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/knees.sh [MAX] [PAGEHOP] - bandwidth (read, write, triad) and
# latency against the working-set size for local, 1st-level and 2nd-level
# remote memory (Schmidl et al.), and where the curves' knees fall against
# the caches of the measuring CPU as hwloc lists them.
#
# One run of "pagehop hops" over powers of two from 4K to MAX (default
# 1G), memory on the CPU's node and on a node of each remote hop level (the
# firmware distances choose them; pagehop reads each size back on its
# node).  A knee is where a curve worsens by more than a threshold from one
# size to the next (latency up by over 25%, bandwidth down by over 15%);
# consecutive such steps are one knee, reported as the last size before it
# and the first after it.  Each knee is set beside hwloc's L1d, L2 and L3 of
# the measuring CPU (hwloc-info --ancestors, a second path to the caches
# that pagehop itself does not use here): a cache C matches a knee from A
# to B when A/2 <= C <= B.  A knee no cache matches is reported as such (a
# TLB's reach on 4K pages, or the DRAM's pages, are the usual causes).
# Remote levels the machine does not have are said to be absent, with the
# firmware distances (sysfs) that show it: never made up.
#
# Exit 1 if level 0's latency curve has no knee at L1d or none at L2 (the
# sweep did not see the caches it must see), 4 if a tool is missing.
# KNEES_JSON=FILE analyses a saved "pagehop hops --format json" instead of
# measuring.  PAGE_SIZE=2m (with --reserve) takes the TLB out of the curves.
#
# Example: flock /work/wt/host.lock bash bench/knees.sh 1G
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [MAX] [PAGEHOP]" >&2; exit 2; }
max=${1:-1G} pagehop_arg=${2:-}
case $max in '' | *[!0-9KMGkmg]*) usage ;; esac
# shellcheck source=bench/lib.sh
PH_BENCH_NO_LIKWID=1 . "$root/bench/lib.sh"
[ -z "$pagehop_arg" ] || pagehop=$pagehop_arg
command -v hwloc-info >/dev/null || { echo "hwloc-info missing: bash scripts/install-deps.sh" >&2; exit 4; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json=$tmp/hops.json
if [ -n "${KNEES_JSON:-}" ]; then
	cp "$KNEES_JSON" "$json"
else
	# The first CPU this process may use measures; hwloc is asked about the same.
	cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
	cmd=("$pagehop" hops --physcpubind "$cpu" --min 4K --max "$max" --kernel "read,write,triad"
		--page-size "$page" ${reserve:+"$reserve"} --format json)
	echo "# ${cmd[*]}" | sed "s|$root/||"
	"${cmd[@]}" >"$json" || { echo "pagehop hops failed" >&2; exit 1; }
fi
cpu=$(jq -er '.hops_method.cpu' "$json")
node=$(jq -er '.hops_method.cpu_node' "$json")

# The measuring CPU's data caches by hwloc: "L1d 49152", "L2 1048576", ...
hwloc-info -p --ancestors "pu:$cpu" | awk '
	/^L[0-9][a-z]*Cache L#/ { name = $1; sub(/Cache$/, "", name) }
	/attr cache size =/ && name != "L1i" { print name, $NF; name = "" }' >"$tmp/caches"
[ -s "$tmp/caches" ] || { echo "hwloc-info lists no cache above PU $cpu" >&2; exit 4; }

human() { awk -v b="$1" 'BEGIN { u = "B"; split("KiB MiB GiB TiB", us, " ");
	for (i = 1; b >= 1024 && i <= 4; i++) { b /= 1024; u = us[i] } printf "%g %s", b, u }'; }
echo "measuring CPU $cpu on node $node; its caches by hwloc:"
while read -r name size; do echo "  $name $(human "$size")"; done <"$tmp/caches"

# The levels: pagehop's, and the firmware's distances from the CPU's node by sysfs.
dist=$(cat "/sys/devices/system/node/node$node/distance")
nmem=0
for d in /sys/devices/system/node/node[0-9]*; do
	[ "$(awk '/MemTotal/ { print $4 }' "$d/meminfo")" -gt 0 ] && nmem=$((nmem + 1))
done
remote=$(echo "$dist" | tr ' ' '\n' | sort -un | awk -v own="$(echo "$dist" | cut -d' ' -f$((node + 1)))" '$1 != own' | paste -sd' ')
echo "node $node's firmware distances (sysfs): $dist; remote distances: ${remote:-none}; nodes with memory: $nmem"
for lv in 1 2; do
	if ! jq -e --argjson l $lv '[.hops[] | select(.level == $l)] | length > 0' "$json" >/dev/null; then
		echo "level $lv: absent: node $node's distances list $(echo "$remote" | wc -w) remote level(s) ($nmem node(s) with memory), so there is no node at hop level $lv to put memory on"
	fi
done

# knees LEVEL FIGURE FIELD DIR: the curve's knees, one line each:
# "A B RATIO SA SB SRATIO", the knee from A to B and its steepest step.
knees() {
	jq -r --argjson l "$1" --arg f "$2" --arg k "$3" \
		'.hops[] | select(.level == $l and .figure == $f and .[$k] != null) | "\(.size_KiB * 1024) \(.[$k])"' "$json" |
		sort -n | awk -v dir="$4" '
		{ s[NR] = $1; v[NR] = $2 }
		END {
			lim = dir == "up" ? 1.25 : 1.15
			for (i = 1; i < NR; i++) {
				r = dir == "up" ? v[i + 1] / v[i] : v[i] / v[i + 1]
				if (r > lim) {
					if (!open) { a = i; open = 1; top = 0 }
					b = i + 1
					if (r > top) { top = r; sa = i }
				} else if (open) { knee(); open = 0 }
			}
			if (open) knee()
		}
		function knee() { print s[a], s[b], v[b] / v[a], s[sa], s[sa + 1], v[sa + 1] / v[sa] }'
}

# A cache C matches a knee from A to B when A/2 <= C <= B.
matches() { awk -v a="$1" -v b="$2" '$2 >= a / 2 && $2 <= b { printf "%s%s", sep, $1; sep = "," }' "$tmp/caches"; }

status=0 nomatch="no cache of hwloc's here"
for lv in $(jq -r '[.hops[].level] | unique | .[]' "$json"); do
	mn=$(jq -r --argjson l "$lv" '[.hops[] | select(.level == $l)][0] | "\(.mem_node) (distance \(.distance))"' "$json")
	echo
	echo "level $lv: memory on node $mn"
	for fig in latency read write triad; do
		if [ $fig = latency ]; then field=lat_ns dir=up; else field=bw_GBps dir=down; fi
		jq -e --argjson l "$lv" --arg f $fig '[.hops[] | select(.level == $l and .figure == $f)] | length > 0' \
			"$json" >/dev/null || continue
		curve=$(jq -r --argjson l "$lv" --arg f $fig --arg k $field \
			'[.hops[] | select(.level == $l and .figure == $f) | "\(.size_KiB)K:\(.[$k])"] | join(" ")' "$json")
		echo "  $fig ($field): $curve"
		found=
		while read -r a b r sa sb sr; do
			[ -n "$a" ] || continue
			m=$(matches "$a" "$b")
			steep=
			[ "$a $b" = "$sa $sb" ] ||
				steep=", steepest $(human "$sa") to $(human "$sb") x$(printf %.2f "$sr")"
			echo "    knee from $(human "$a") to $(human "$b") (x$(printf %.2f "$r")$steep): ${m:-$nomatch}"
			found="$found,$m"
		done < <(knees "$lv" $fig $field $dir)
		[ -n "$found" ] || echo "    no knee"
		if [ "$lv" = 0 ] && [ $fig = latency ]; then
			for c in L1d L2; do
				case "$found," in
				*",$c,"*) ;;
				*) if grep -q "^$c " "$tmp/caches"; then
					echo "    MISSING: no latency knee at $c" >&2
					status=1
				fi ;;
				esac
			done
		fi
	done
done
exit $status
