# SPDX-License-Identifier: GPL-2.0-only
# tests/host/lib.sh - helpers for host tests.  Source it; $1 is the binary.
set -u
PAGEHOP=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
_failed=0

pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; _failed=1; }
skip_test() { echo "$*"; exit 77; }
# expect DESC ACTUAL WANT
expect() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }
# usage_error DESC ARGS...: exit 2, one line on stderr, nothing on stdout.
usage_error() {
	local desc=$1 rc
	shift
	"$PAGEHOP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		pass "$desc: $(cat "$TMP/err")"
	else
		fail "$desc: exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr: $(cat "$TMP/err")"
	fi
}
# usage3 DESC ARGS...: pagehop check ARGS is bad usage, which check answers
# UNKNOWN (3): one line on stderr, the same reason on stdout as the line.
usage3() {
	local desc=$1 rc
	shift
	"$PAGEHOP" check "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 3 ] && [ "$(wc -l <"$TMP/out")" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		[ "$(cat "$TMP/out")" = "PAGEHOP UNKNOWN - $(sed 's/^pagehop check: //' "$TMP/err")" ] &&
		pass "$desc: $(cat "$TMP/out")" || fail "$desc: exit $rc: out '$(cat "$TMP/out")' err '$(cat "$TMP/err")'"
}
finish() { exit $_failed; }
# expect_repeats DESC JSON ROW REPS VALUE UNIT N: a figure's between-run
# columns (jq path ROW, e.g. '.stream[0]') against its repeats (jq array
# REPS, rows with VALUE, ci_lo_UNIT, ci_hi_UNIT, picked), recomputed here:
# N of them, rep_lo/rep_hi their lowest and highest, the picked one the
# figure and the middle one, between_runs by whether two CIs are apart.
expect_repeats() {
	local d=$1 j=$2 row="($3)" reps="($4)" v=$5 u=$6 n=$7 between want
	expect "$d: $n repeats" "$(jq -r "[$row.repeats, ($reps | length)] | join(\" \")" "$j")" "$n $n"
	expect "$d: rep_lo, rep_hi are the lowest and highest repeat" \
		"$(jq -r "[$row.rep_lo_$u, $row.rep_hi_$u] | join(\" \")" "$j")" \
		"$(jq -r "[$reps | map(.$v) | min, max] | join(\" \")" "$j")"
	expect "$d: the picked repeat is the figure, and the middle one" \
		"$(jq -r "[$reps[] | select(.picked) | .$v, .ci_lo_$u, .ci_hi_$u] + [$reps | map(.$v) | sort | .[(length - 1) / 2 | floor]] | map(tostring) | join(\" \")" "$j")" \
		"$(jq -r "[$row | .$v, .ci_lo_$u, .ci_hi_$u, .$v] | map(tostring) | join(\" \")" "$j")"
	between=$(jq -r "$row.between_runs" "$j")
	want=$(jq -r "$reps as \$all | [\$all[] | select(.ci_lo_$u != null and .ci_hi_$u != null)] as \$r
		| ([range(0; \$r | length) as \$i | range(\$i + 1; \$r | length) as \$k
		    | select(\$r[\$i].ci_hi_$u < \$r[\$k].ci_lo_$u or \$r[\$k].ci_hi_$u < \$r[\$i].ci_lo_$u)] | length) as \$apart
		| if (\$all | length) < 2 then \"one\" elif \$apart > 0 then \"differ\"
		  elif (\$r | length) == (\$all | length) then \"agree\" else \"unknown\" end" "$j")
	expect "$d: between_runs from the repeats' CIs ($(jq -r "$reps | map(\"\\(.$v) [\\(.ci_lo_$u), \\(.ci_hi_$u)]\") | join(\", \")" "$j"))" \
		"$between" "$want"
	[ "$(jq -r "$row.bimodal" "$j")" = false ] || [ "$between" = differ ] &&
		pass "$d: bimodal only where the repeats differ" || fail "$d: bimodal with between_runs $between"
}
# cxl_tree ROOT NODE MODE [WAYS]: under ROOT, a sysfs as Linux 6.12 lays
# out one CXL type-3 device on a root port: mem0 (endpoint2 under
# root0/port1, host bridge pci0000:0c) decoded by region0 (MODE,
# 0x390000000, 256 MiB: blocks 0x390000000 / 0x8000000 = 114 and 115 of
# 128 MiB), of which block memory115 links to node NODE; and the bus's
# links.  With WAYS 2, region0 is interleaved over mem0 and mem1
# (endpoint3, decoder3.0, under the bridge's second root port
# 0000:0c:01.0).  Laid over a tree already there, it rewrites that tree in
# place.  A test adds the files it reads beyond these.
cxl_tree() {
	local R=$1 PLAT=sys/devices/platform/ACPI0017:00/root0 BUS=sys/bus/cxl/devices ways=${4:-1}
	_put() { mkdir -p "$(dirname "$R/$1")" && printf '%s\n' "$2" >"$R/$1"; }
	_lnk() { mkdir -p "$(dirname "$R/$1")" && ln -sfn "$2" "$R/$1"; }
	_lnk $PLAT/port1/uport ../../../../pci0000:0c
	_lnk $PLAT/port1/endpoint2/uport ../../../../../pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0
	_put $PLAT/decoder0.0/region0/mode "$3"
	_put $PLAT/decoder0.0/region0/resource 0x390000000
	_put $PLAT/decoder0.0/region0/size 0x10000000
	_put $PLAT/decoder0.0/region0/interleave_ways "$ways"
	_put $PLAT/decoder0.0/region0/target0 decoder2.0
	_put sys/devices/system/memory/block_size_bytes 8000000
	_lnk sys/devices/system/memory/memory115/node$2 ../../node/node$2
	_lnk $BUS/mem0 ../../../devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0
	_lnk $BUS/endpoint2 ../../../devices/platform/ACPI0017:00/root0/port1/endpoint2
	_lnk $BUS/region0 ../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0
	[ "$ways" = 2 ] || return 0
	_lnk $PLAT/port1/endpoint3/uport ../../../../../pci0000:0c/0000:0c:01.0/0000:0e:00.0/mem1
	_put $PLAT/decoder0.0/region0/target1 decoder3.0
	_lnk $BUS/mem1 ../../../devices/pci0000:0c/0000:0c:01.0/0000:0e:00.0/mem1
	_lnk $BUS/endpoint3 ../../../devices/platform/ACPI0017:00/root0/port1/endpoint3
}
