# SPDX-License-Identifier: GPL-2.0-only
# slit_ignored.sh - a guest whose firmware SLIT Linux ignores (every entry 10,
# tests/vm/lib.sh remote10): the kernel says so and uses 10/20, and pagehop
# info and slit say why, read against the kernel's own word (dmesg) and
# its distances in /sys, on 6.1 and 6.12 alike.
. /tests/tap.sh
plan 12

dmesg | grep -q 'SLIT table looks invalid. Not used.' &&
	ok "the kernel ignores the SLIT (dmesg)" || not_ok "dmesg" "$(dmesg | grep -i slit)"
sys=$(for i in 0 1 2 3; do cat /sys/devices/system/node/node$i/distance; done | tr '\n' ' ' | sed 's/ *$//')
[ "$sys" = "$VM_LINUX_SLIT" ] && ok "the kernel uses 10/20: $sys" || not_ok "kernel distances" "want $VM_LINUX_SLIT got $sys"

j=/tmp/info.json
if pagehop info --format json >$j 2>/tmp/err; then ok "info exits 0"; else not_ok "info exits 0" "$(cat /tmp/err)"; fi
got=$(jq -r '[.distances.values[][]] | map(tostring) | join(" ")' $j)
[ "$got" = "$sys" ] && ok "info's distances are the kernel's" || not_ok "info distances" "got $got"
st=$(jq -r '.firmware_slit | "\(.status) \(.localities) \(.rule) \(.from_locality)>\(.to_locality)=\(.value) \(.bad_entries)"' $j)
[ "$st" = "rejected 4 remote_not_above_10 0>1=10 12" ] && ok "firmware_slit: $st" || not_ok "firmware_slit" "$st"
[ "$(jq -r .firmware_slit.linux_uses $j)" = "its default distances: 10 local, 20 remote" ] &&
	ok "says what Linux uses" || not_ok "linux_uses" "$(jq -c .firmware_slit $j)"
jq -r '.notes[]' $j | grep -q "^the firmware's SLIT (/sys/firmware/acpi/tables/SLIT): Linux ignores this SLIT" &&
	ok "a note says so" || not_ok "note" "$(jq -c .notes $j)"
pagehop info >/tmp/info.txt 2>&1
grep -q '^  status  *rejected$' /tmp/info.txt && ok "table format too" || not_ok "table format" "$(grep -A8 'firmware SLIT' /tmp/info.txt)"

# Measuring: the distances recorded are the kernel's 10/20, which Linux takes;
# the firmware's own table is judged beside the verdict.
pagehop slit --size 8M --time 0.1 --ci 50 --page-size 4k --format json >/tmp/s.json 2>/tmp/err
rc=$?
# At --time 0.1 a cell may lack its samples: "cannot tell" (exit 5) names it.
case $rc in
0|1|3) ok "slit online: a verdict (exit $rc)" ;;
5) [ "$(jq -r '.lacking_evidence | length' /tmp/s.json)" -gt 0 ] && ok "slit online: cannot tell (exit 5), the cells named" ||
	not_ok "slit online" "exit 5 without lacking_evidence" ;;
*) not_ok "slit online" "rc $rc: $(cat /tmp/err)" ;;
esac
[ "$(jq -r .verdict.slit_linux /tmp/s.json)" = accepted ] && ok "recorded distances accepted (they are Linux's)" ||
	not_ok "slit_linux" "$(jq -c .verdict /tmp/s.json)"
[ "$(jq -r .firmware_slit.status /tmp/s.json)" = rejected ] && ok "slit online: firmware_slit rejected" ||
	not_ok "slit online firmware_slit" "$(jq -c .firmware_slit /tmp/s.json)"
[ "$(jq -r '[.levels[] | select(.source == "slit") | .dist_mean] | map(tostring) | join(" ")' /tmp/s.json)" = "10 20" ] &&
	ok "compared with 10/20" || not_ok "slit levels" "$(jq -c '[.levels[] | select(.source == "slit")]' /tmp/s.json)"
