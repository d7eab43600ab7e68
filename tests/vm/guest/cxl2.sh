# SPDX-License-Identifier: GPL-2.0-only
# cxl2.sh - on cxl2 (tests/vm/lib.sh): two CXL type-3 expanders on the two
# root ports of one host bridge, each with its own CDAT (figures
# VM_CXL_CDAT_FIG and VM_CXL_CDAT_FIG1, files /etc/pagehop-cxl.cdat and
# /etc/pagehop-cxl1.cdat), one region interleaved over both, online as a
# CPU-less node.  pagehop info must find both devices and the region's
# node, read each CDAT as its file holds it; pagehop cxl must compose the
# region as it is composed again here by hand and as the kernel shows it:
# each device CDAT + link + generic port, latency the worst device's;
# bandwidth min(CDAT, link) summed over the bridge's devices, then min
# with the generic port.  The kernel names the memdevs in probe order, so
# which file is mem0's is found by comparing bytes.
. /tests/tap.sh
. /tests/cxl_lib.sh
plan 8
cxlbus=/sys/bus/cxl/devices
# shellcheck disable=SC2086
set -- $VM_CXL_GP_LAT
gp_lat=$(( $1 < $2 ? $1 : $2 ))
# shellcheck disable=SC2086
set -- $VM_CXL_GP_BW
gp_bw=$(( $1 > $2 ? $1 : $2 ))

missing=$(cxl_missing)
if [ -n "$missing" ]; then
	for t in "both memdevs" "CDAT bytes" "2-way region" "CPU-less node" "info memdevs" \
		"CDAT fields" "explanation by hand" "adds up to sysfs"; do
		skip "$t" "missing in the guest:$missing (scripts/install-deps.sh check installs ndctl, daxctl)"
	done
	exit 0
fi
cxl_load
cxl_wait_endpoints 2
eps=
for e in $cxlbus/endpoint*; do
	[ -e "$e/uport" ] && eps="$eps $(basename "$(readlink "$e/uport")"):$(basename "$e")"
done
eps=$(echo "$eps" | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$eps" = " mem0:endpoint2 mem1:endpoint3 " ] || [ "$eps" = " mem0:endpoint3 mem1:endpoint2 " ] &&
	ok "mem0 and mem1 with their endpoints on the CXL bus:$eps" ||
	not_ok "both memdevs" "$eps; $(ls $cxlbus 2>&1; dmesg | grep -i cxl | tail -n 20)"

# Which file each memdev's CDAT is, byte for byte; its figures.
fig_of() { [ "$1" = /etc/pagehop-cxl.cdat ] && echo "$VM_CXL_CDAT_FIG" || echo "$VM_CXL_CDAT_FIG1"; }
got=
for m in mem0 mem1; do
	ep=$(for e in $cxlbus/endpoint*; do [ "$(basename "$(readlink "$e/uport")")" = $m ] && basename "$e"; done)
	for f in /etc/pagehop-cxl.cdat /etc/pagehop-cxl1.cdat; do
		cmp -s $f $cxlbus/$ep/CDAT && eval "file_$m=$f" && got="$got $m:$f"
	done
done
# shellcheck disable=SC2154 # set by eval
if [ -n "${file_mem0:-}" ] && [ -n "${file_mem1:-}" ] && [ "$file_mem0" != "$file_mem1" ]; then
	ok "each endpoint's CDAT is one of the files given to QEMU, byte for byte:$got"
else
	not_ok "CDAT bytes" "matched:$got"
	file_mem0=/etc/pagehop-cxl.cdat file_mem1=/etc/pagehop-cxl1.cdat
fi

cxl_online -m -t pmem -d decoder0.0 -w 2 -g 4096 mem0 mem1 -s 512M
ways=$(cat $cxlbus/$region/interleave_ways 2>/dev/null)
targets=$(cat $cxlbus/$region/target0 $cxlbus/$region/target1 2>/dev/null | tr '\n' ' ')
[ "$ways" = 2 ] && ok "$region interleaved 2 ways over $targets" ||
	not_ok "2-way region" "ways '$ways'; $(tail -n 30 $log)"
cxl_cpuless_node
[ -n "$node" ] && [ "$kb" -gt 0 ] && [ "$kb" -le $((512 * 1024)) ] &&
	ok "$region is online as CPU-less node $node: $kb kB" ||
	not_ok "CPU-less node" "node '$node' $kb kB; $(tail -n 30 $log)"
diag "$(cxl list -M -R -u 2>&1 | tr -s ' \n' ' ')"

pagehop info --format json >/tmp/info.json 2>/tmp/info.err
mem() { jq -r ".cxl_memdevs[] | select(.memdev == \"$1\") | .$2" /tmp/info.json 2>/dev/null; }
got= want=
for m in mem0 mem1; do
	ep=$(for e in $cxlbus/endpoint*; do [ "$(basename "$(readlink "$e/uport")")" = $m ] && basename "$e"; done)
	got="$got $m:$(mem $m endpoint)/$(mem $m host_bridge)/$(mem $m regions)/$(mem $m nodes)"
	want="$want $m:$ep/$VM_CXL_HOST_BRIDGE/$region/$node"
done
rgot=$(jq -r ".cxl_regions[]? | select(.region == \"$region\") | \"\(.memdevs) \(.node)\"" /tmp/info.json)
if [ "$got" = "$want" ] && { [ "$rgot" = "mem0,mem1 $node" ] || [ "$rgot" = "mem1,mem0 $node" ]; }; then
	ok "pagehop info: both memdevs (endpoint/host bridge/region/node):$got; $region over $rgot"
else
	not_ok "info memdevs" "pagehop:$got, $region: $rgot; sysfs:$want; $(cat /tmp/info.err)"
fi

cd_row() { jq -r ".cxl_cdat[] | select(.memdev == \"$1\" and .structure == \"$2\"$3) | .$4" /tmp/info.json; }
got= want=
for m in mem0 mem1; do
	eval "f=\$file_$m"
	got="$got $m:$(mem $m cdat_parsed)/$(mem $m cdat_bytes)/$(cd_row $m DSMAS '' dpa_length)"
	for t in read_latency write_latency read_bandwidth write_bandwidth; do
		got="$got/$(cd_row $m DSLBIS " and .data_type == \"$t\"" value)"
	done
	want="$want $m:true/$(wc -c <"$f")/$((VM_CXL_MIB << 20))/$(fig_of "$f" | tr ' ' /)"
done
[ "$got" = "$want" ] && ok "each CDAT as pagehop parsed it (parsed/bytes/DSMAS length/4 DSLBIS):$got" ||
	not_ok "CDAT fields" "pagehop:$got; written:$want; $(jq -c .cxl_cdat /tmp/info.json)"

# By hand: each device's link from sysfs (as cxl_cmd.sh), its path, then
# the region: latency the worst; bandwidth sum of min(CDAT, link), then
# min with the port (one host bridge).
pagehop cxl --no-measure --format json >/tmp/cxl.json 2>/tmp/cxl.err
rc=$?
mbps() { awk '{ printf "%d", $1 * 1000 + 0.5 }' "$1/current_link_speed"; }
want= gotp= gotk= kern= sums=
for a in 0 1; do
	i=0
	for fg in read_latency write_latency read_bandwidth write_bandwidth; do
		i=$((i + 1))
		case $fg in *latency) u=ns ;; *) u=MBps ;; esac
		r=0
		for m in mem0 mem1; do
			eval "f=\$file_$m"
			# shellcheck disable=SC2046
			set -- $(fig_of "$f")
			c=$(eval echo "\${$i}")
			dev=$(dirname "$(readlink -f $cxlbus/$m)")
			dm=$(mbps "$dev") pm=$(mbps "$(dirname "$dev")") w=$(cat "$dev/current_link_width")
			case $fg in
			*latency) l=$(((68 * 1000000 / (pm / 8) + 999) / 1000)) g=$gp_lat s=$((c + l + g))
				[ $s -gt $r ] && r=$s ;;
			*) l=$((dm / 8 * w)) g=$gp_bw s=$c; [ $l -lt $s ] && s=$l; r=$((r + s)); [ $g -lt $s ] && s=$g ;;
			esac
			want="$want $m/$a/$fg:$c/$l/$g/$s"
			gotp="$gotp $(jq -r ".cxl_explain[] | select(.memdev == \"$m\" and .access == $a and .figure == \"${fg}_$u\") |
				\"$m/$a/$fg:\(.device_cdat)/\(.link)/\(.generic_port)/\(.composed)\"" /tmp/cxl.json)"
		done
		case $fg in *bandwidth) [ $gp_bw -lt $r ] && r=$gp_bw ;; esac
		want="$want region/$a/$fg:$r"
		gotp="$gotp $(jq -r ".cxl_explain[] | select((.memdev | test(\",\")) and .access == $a and .figure == \"${fg}_$u\") |
			\"region/$a/$fg:\(.composed)\"" /tmp/cxl.json)"
		gotk="$gotk $(jq -r ".cxl_explain[] | select((.memdev | test(\",\")) and .access == $a and .figure == \"${fg}_$u\") |
			\"\(.kernel_node)/\(.kernel_region)/\(.verdict)\"" /tmp/cxl.json)"
		kern="$kern $(cat /sys/devices/system/node/node$node/access$a/initiators/$fg)/$(cat $cxlbus/$region/access$a/$fg)/adds up"
		sums="$sums $r/$r/adds up"
	done
done
[ $rc -eq 0 ] && [ "$gotp" = "$want" ] &&
	ok "pagehop cxl: each device's path and the region's composition as by hand (CDAT/link/port/composed):$want" ||
	not_ok "explanation by hand" "exit $rc: $(cat /tmp/cxl.err); pagehop:$gotp; by hand:$want"
[ "$gotk" = "$kern" ] && [ "$kern" = "$sums" ] &&
	ok "every region figure adds up to node $node's and $region's (node/region/verdict):$kern" ||
	not_ok "adds up to sysfs" "pagehop:$gotk; sysfs:$kern; composed by hand:$sums"
diag "setup log: $(grep -c '^\$' $log) commands, failed: $(grep -B1 -E '^\[rc=[1-9]' $log | grep '^\$' | tr '\n' ';')"
pagehop cxl --no-measure 2>&1 | sed 's/^/# /' | head -n 60
