# SPDX-License-Identifier: GPL-2.0-only
# test_interleave.sh - section interleave_weights of "pagehop slit": the
# weighted-interleave weights Linux 6.16+ derives from HMAT bandwidth
# (mm/mempolicy.c, reduce_interleave_weights(); docs/slit.md section 13),
# for the firmware's HMAT and the proposed one, and what the running
# kernel's sysfs holds.  Values worked out by hand:
#   firmware (tests/data/hmat/qemu-4node-odd.hmat): nodes 0-3 20480 MB/s,
#     node 4 none; sum 81920, 32 * 20480 / 81920 = 8, node 4 1; gcd 1;
#   proposed from tests/data/slit/matrix-4node-cxl.json: 20100 19900 20300
#     20000 6100 MB/s, sum 86400: 643200 / 86400 = 7, 7, 7, 7, 195200 /
#     86400 = 2; gcd 1.
# The sysfs is read through a stand-in directory (PAGEHOP_WI_SYSFS), and
# on this machine's own kernel against cat of its files, only for an input
# measured here (its provenance names this host) or with --this-kernel: an
# input from another host, or of unknown origin, reads nothing of this
# machine's, whatever PAGEHOP_WI_SYSFS says.
. "$(dirname "$0")/lib.sh"

ROOT=${PAGEHOP_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
IN=(--input "$ROOT/tests/data/slit/matrix-4node-cxl.json" --hmat-table "$ROOT/tests/data/hmat/qemu-4node-odd.hmat")
j() { jq -r "$2" "$TMP/$1.json"; }

PAGEHOP_KERNEL=6.12.117+deb12-amd64 "$PAGEHOP" slit "${IN[@]}" --format json >"$TMP/a.json" 2>"$TMP/a.err"
expect "6.12: exit 0" "$?" 0
expect "6.12: weighted interleave without auto mode" "$(j a .interleave_weights.support | cut -c1-19)" "Linux 6.9 to 6.15: "
expect "firmware's weights" "$(j a .interleave_weights.weights_firmware)" "0:8 1:8 2:8 3:8 4:1"
expect "proposed weights" "$(j a .interleave_weights.weights_proposed)" "0:7 1:7 2:7 3:7 4:2"
expect "bandwidths mempolicy_set_node_perf() would cache" \
	"$(j a '[.kernel_interleave[] | "\(.bw_firmware_MBps)/\(.bw_proposed_MBps)"] | join(" ")')" \
	"20480/20100 20480/19900 20480/20300 20480/20000 0/6100"
expect "every node marked" "$(j a '[.kernel_interleave[].differs] | join("")')" "*****"
expect "sysfs not read for a kernel named by PAGEHOP_KERNEL" "$(j a .interleave_weights.sysfs | cut -c1-8)" "not read"

PAGEHOP_KERNEL=6.1.0-57-amd64 "$PAGEHOP" slit "${IN[@]}" --format json >"$TMP/b.json" 2>"$TMP/b.err"
expect "6.1: no weighted interleave" "$(j b .interleave_weights.support | cut -c1-18)" "before Linux 6.9: "
expect "6.1: the same derived weights" "$(j b .interleave_weights.weights_proposed)" "0:7 1:7 2:7 3:7 4:2"

# A stand-in sysfs: auto mode holding the firmware's weights, under each name of the auto file.
fake() { # DIR AUTO_NAME AUTO W0..W4
	local d=$1 k=0 w
	rm -rf "$d" && mkdir -p "$d"
	[ -n "$2" ] && echo "$3" >"$d/$2"
	shift 3
	for w in "$@"; do echo "$w" >"$d/node$k"; k=$((k + 1)); done
}
run_fake() { PAGEHOP_WI_SYSFS=$TMP/wi "$PAGEHOP" slit "${IN[@]}" --this-kernel --format json >"$TMP/$1.json" 2>"$TMP/$1.err"; }
fake "$TMP/wi" auto true 8 8 8 8 1
run_fake c
expect "auto: sysfs read back" "$(j c .interleave_weights.weights_sysfs)" "0:8 1:8 2:8 3:8 4:1"
expect "auto: as expected" "$(j c '"\(.interleave_weights.sysfs_auto) \(.interleave_weights.sysfs_as_expected)"')" "true true"
fake "$TMP/wi" __auto_type true 8 3 8 8 1
run_fake d
expect "auto file named __auto_type: read; node 1 off" \
	"$(j d '"\(.interleave_weights.sysfs_auto) \(.interleave_weights.sysfs_as_expected)"')" "true false"
expect "the weight off is noted" "$(grep -c 'this kernel holds 0:8 1:3 2:8 3:8 4:1 where pagehop expects 0:8 1:8 2:8 3:8 4:1' "$TMP/d.json")" 1
fake "$TMP/wi" "" "" 1 1 1 1 1
run_fake e
expect "6.9 to 6.15 (no auto file): every weight 1 expected" \
	"$(j e '"\(.interleave_weights.sysfs_auto) \(.interleave_weights.weights_sysfs_expected) \(.interleave_weights.sysfs_as_expected)"')" \
	"absent 0:1 1:1 2:1 3:1 4:1 true"
fake "$TMP/wi" auto false 5 5 5 5 5
run_fake f
expect "manual mode: no expectation" "$(j f '.interleave_weights | has("sysfs_as_expected")')" false
rm -rf "$TMP/wi"
run_fake g
expect "no directory: absent" "$(j g .interleave_weights.sysfs | cut -c1-6)" "absent"

# Another host's table (the same JSON, its provenance naming another host):
# nothing of this machine's sysfs, even with a stand-in offered.
fake "$TMP/wi" auto true 8 3 8 8 1
jq '.provenance.host = "not-this-host.example"' "$ROOT/tests/data/slit/matrix-4node-cxl.json" >"$TMP/other.json"
PAGEHOP_WI_SYSFS=$TMP/wi "$PAGEHOP" slit --input "$TMP/other.json" --format json >"$TMP/o.json" 2>"$TMP/o.err"
expect "another host: exit 0" "$?" 0
expect "another host: the rule that decided" "$(j o .origin.rule | cut -c1-33)" "measured on not-this-host.example"
expect "another host: measured and analysing hosts apart" "$(j o '"\(.origin.measured_on) \(.origin.analysed_on)"')" \
	"not-this-host.example $(uname -n)"
expect "another host: sysfs not this machine's" "$(j o .interleave_weights.sysfs | cut -c1-45)" \
	"not read: not this machine's measurement (mea"
expect "another host: no sysfs weights, no expectation" \
	"$(j o '.interleave_weights | has("weights_sysfs") or has("sysfs_as_expected")')" false
expect "another host: no 'this kernel holds'" "$(grep -c 'this kernel holds' "$TMP/o.json")" 0
expect "another host: the kernel unknown, and what would tell it" \
	"$(j o '"\(.interleave_weights.kernel) \(.interleave_weights.support | test("give --kernel-version"))"')" "unknown true"
# The document's own provenance is the analysing run's; nothing else names this kernel.
expect "another host: nothing of $(uname -r) beyond the run's provenance" \
	"$(jq 'del(.provenance)' "$TMP/o.json" | grep -c -F -- "$(uname -r)")" 0
PAGEHOP_WI_SYSFS=$TMP/wi "$PAGEHOP" slit --input "$TMP/other.json" --format table >"$TMP/o.txt" 2>&1
expect "another host, as a table: no 'this kernel holds', no sysfs_as_expected" \
	"$(grep -c 'this kernel holds\|sysfs_as_expected' "$TMP/o.txt")" 0
# The same table with this host's name: measured here, so the stand-in is read.
jq --arg h "$(hostname)" '.provenance.host = $h' "$ROOT/tests/data/slit/matrix-4node-cxl.json" >"$TMP/here.json"
PAGEHOP_WI_SYSFS=$TMP/wi "$PAGEHOP" slit --input "$TMP/here.json" --format json >"$TMP/m.json" 2>"$TMP/m.err"
expect "this host's name: measured here" "$(j m .origin.rule | cut -c1-13)" "measured here"
expect "this host's name: sysfs read" "$(j m .interleave_weights.weights_sysfs)" "0:8 1:3 2:8 3:8 4:1"
expect "this host's name: this kernel" "$(j m .interleave_weights.kernel)" "$(uname -r)"
expect "this host's name: the weight off noted" "$(grep -c 'this kernel holds 0:8 1:3' "$TMP/m.json")" 1
rm -rf "$TMP/wi"

# This machine's kernel: its nodes as a flat matrix, no HMAT file.  A CSV
# names no host, so its origin is unknown: its sysfs is read only with --this-kernel.
nodes=$(cat /sys/devices/system/node/has_memory 2>/dev/null)
ids=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | sed 's/.*node//' | sort -n)
{ printf '# pagehop matrix\n# metric: latency_ns\nnode'; for i in $ids; do printf ',%s' "$i"; done; echo
  for i in $ids; do printf '%s' "$i"; for k in $ids; do printf ',100'; done; echo; done; } >"$TMP/flat.csv"
"$PAGEHOP" slit --input "$TMP/flat.csv" --format json >"$TMP/u.json" 2>"$TMP/u.err"
expect "origin unknown: exit 0" "$?" 0
expect "origin unknown: said" "$(j u .origin.rule | cut -c1-14)" "origin unknown"
expect "origin unknown: sysfs not read" "$(j u .interleave_weights.sysfs | cut -c1-24)" "not read: origin unknown"
expect "origin unknown: no sysfs weights" "$(j u '.interleave_weights | has("weights_sysfs")')" false
"$PAGEHOP" slit --input "$TMP/flat.csv" --this-kernel --format json >"$TMP/h.json" 2>"$TMP/h.err"
expect "this machine: exit 0" "$?" 0
expect "--this-kernel: the running kernel, said so" "$(j h .origin.kernel_from | cut -c1-14)" "--this-kernel:"
wi=/sys/kernel/mm/mempolicy/weighted_interleave
if [ -d $wi ]; then
	want=$(for i in $ids; do [ -r $wi/node$i ] && printf '%s:%s ' "$i" "$(cat $wi/node$i)" || printf '%s:- ' "$i"; done | sed 's/ $//')
	expect "this kernel ($(uname -r), memory nodes $nodes): sysfs read back as cat shows it" \
		"$(j h .interleave_weights.weights_sysfs)" "$want"
	a=$(cat $wi/auto 2>/dev/null || cat $wi/__auto_type 2>/dev/null || echo absent)
	a=${a/Y/true}; a=${a/N/false}
	expect "this kernel: auto mode as cat shows it" "$(j h .interleave_weights.sysfs_auto)" "$a"
else
	expect "this kernel ($(uname -r)): no weighted interleave, said so" "$(j h .interleave_weights.sysfs | cut -c1-6)" "absent"
fi
finish
