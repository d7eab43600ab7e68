#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/cxl_roundtrip.sh KVER - the CDAT "pagehop cxl --emit-cdat" wrote
# in the cxl guest, through QEMU and the kernel.  cxl_cmd.sh prints the
# emitted file (in hex) and the document that proposed it into its TAP log;
# this script gives that file to QEMU's cdat= in a second boot of the same
# machine (vm_config_cxl, the same generic port and link) and passes the
# first boot's predictions to cxl_rt.sh there, which checks that the
# kernel's CDAT is the emitted file byte for byte, that every access0 and
# access1 figure of the node and the region is the composition the first
# document gives (its link and generic port parts with the emitted CDAT
# figure in place of the old one), that node access1's read latency is the
# document's proposed_read_lat_ns, and its tier the document's
# proposed_tier.  cxl_cmd.sh runs there too: pagehop's own explanation,
# with the emitted figures, adds up to the kernel's again.  The CDAT is
# the one cxl_cmd.sh had pagehop propose from the guest's own document
# with every measured latency set to 1000 ns (--input, --cdat), since
# TCG's timing mostly implies no device latency at all: its read latency
# is 1000 ns less the link's and the port's.  Should it equal the
# original, a boot would show nothing new, and the script says so and
# skips it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

vm_roundtrip_open "$1" cxl cxlrt
vm_tap_file new.cdat.hex | xxd -r -p >"$out/new.cdat"
vm_tap_file cxlm.json >"$out/cxlm.json"
if [ ! -s "$out/new.cdat" ] || ! jq -e .cxl_explain "$out/cxlm.json" >/dev/null 2>&1; then
	echo "not ok - cxl round trip: no emitted CDAT or document from the cxl guest in $src"
	exit 1
fi
# The four DSLBIS of the file cxl_tables.py writes (and --emit-cdat keeps
# in place): read and write latency, read and write bandwidth; base unit
# (u64) at 48 + 24 k, entry (u16) at 56 + 24 k, data type at 46 + 24 k;
# latency bases in ps.
u() { od -A n -t "u$2" -j "$1" -N "$2" "$out/new.cdat" | tr -d ' '; }
figs=
for k in 0 1 2 3; do
	b=$(u $((48 + 24 * k)) 8) e=$(u $((56 + 24 * k)) 2) t=$(u $((46 + 24 * k)) 1)
	if [ "$t" != $((k < 2 ? k + 1 : k + 2)) ] || { [ $k -lt 2 ] && [ "$b" != 1000 ]; } || { [ $k -ge 2 ] && [ "$b" != 1 ]; }; then
		echo "not ok - cxl round trip: DSLBIS $k of the emitted CDAT is not where it was (type $t, base $b)"
		exit 1
	fi
	figs="$figs $e"
done
figs=${figs# }
# shellcheck disable=SC2086 # four figures each
set -- $VM_CXL_CDAT_FIG
orig_rl=$1
# shellcheck disable=SC2086
set -- $figs
if [ "$figs" = "$VM_CXL_CDAT_FIG" ]; then
	echo "ok - cxl round trip # SKIP the emitted CDAT's figures are the ones given ($figs): a second boot would show nothing"
	exit 0
fi
echo "ok - the emitted CDAT from the cxl guest: $(stat -c %s "$out/new.cdat") bytes, figures $figs (given: $VM_CXL_CDAT_FIG; read latency $orig_rl -> $1 ns)"
# The predictions: per access class, each figure composed from the first
# document's link and generic port parts with the emitted CDAT figure.
coords=
for a in 0 1; do
	i=0
	for f in read_latency_ns write_latency_ns read_bandwidth_MBps write_bandwidth_MBps; do
		i=$((i + 1))
		coords="$coords $(jq -r --argjson a $a --arg f $f --argjson d "${!i}" '.cxl_explain[] |
			select(.access == $a and .figure == $f) |
			if ($f | endswith("_ns")) then $d + .link + .generic_port
			else [$d, .link, .generic_port] | min end' "$out/cxlm.json")"
	done
done
coords=${coords# }
lat1=$(jq -r '.cxl_effects[0].proposed_read_lat_ns // empty' "$out/cxlm.json")
tier=$(jq -r '.cxl_effects[0].proposed_tier // empty' "$out/cxlm.json")
if [ "$(wc -w <<<"$coords")" != 8 ] || [ -z "$lat1" ]; then
	echo "not ok - cxl round trip: the first document gives no prediction (coordinates '$coords', proposed read latency '$lat1')"
	exit 1
fi
echo "ok - predicted by the first boot: access0 and access1 (read/write ns, read/write MB/s) $coords; access1 read $lat1 ns; tier ${tier:-none}"
hex=$(od -A n -t x1 -v "$out/new.cdat" | tr -d ' \n')
export VM_MODULE=${VM_MODULE:-}
VM_CXL_CDAT_FILE=$out/new.cdat VM_ENV_EXTRA="VM_CXL_CDAT_FIG='$figs'
VM_CXL_RT_HEX='$hex'
VM_CXL_RT_COORDS='$coords'
VM_CXL_RT_LAT1='$lat1'
VM_CXL_RT_TIER='$tier'" \
	vm_boot cxl 600 "$out/boot" cxl cxl_cmd cxl_rt
vm_check "$out/boot" cxl cxl_cmd cxl_rt
