# SPDX-License-Identifier: GPL-2.0-only
# diag_slit.sh - pagehop check in the guest whose firmware SLIT Linux
# ignores (tests/vm/lib.sh remote10; dmesg says so): flagged as a WARNING
# naming the SLIT, without a baseline.
. /tests/tap.sh
plan 2

dmesg | grep -q 'SLIT table looks invalid. Not used.' && ok "the kernel ignores the SLIT (dmesg)" ||
	not_ok "dmesg" "$(dmesg | grep -i slit)"
pagehop check --budget 2 --format json >/tmp/c.json 2>/tmp/err
rc=$?
s=$(jq -r '.findings[] | select(.basis == "rule" and .figure == "slit_valid") | .status' /tmp/c.json)
[ "$s" = WARNING ] && [ $rc -ge 1 ] && [ $rc -le 2 ] && ok "the SLIT flagged: $(jq -r '.findings[] | select(.basis == "rule" and .figure == "slit_valid") | .why' /tmp/c.json)" ||
	not_ok "SLIT flagged" "status '$s' rc $rc: $(jq -r .verdict.line /tmp/c.json 2>&1) $(cat /tmp/err)"
