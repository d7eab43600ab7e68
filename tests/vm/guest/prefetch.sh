# SPDX-License-Identifier: GPL-2.0-only
# prefetch.sh - in a guest (TCG has no prefetch MSR): the PREFETCH ioctl
# fails cleanly with EOPNOTSUPP, "pagehop prefetch" says so in one line
# citing the errno and still runs the pattern study, info reports no
# control; the kernel log stays clean (checked by the harness).
. /tests/tap.sh
plan 6
insmod /lib/modules/pagehop.ko || { not_ok "insmod"; exit 0; }
pagehop info --format json >/tmp/i.json
[ "$(jq -r .module.prefetch_control /tmp/i.json)" = no ] && ok "info: no prefetch control ($(jq -r .module.prefetch_why /tmp/i.json))" ||
	not_ok "info prefetch_control" "$(jq -c .module /tmp/i.json)"
pagehop prefetch --size 16M --time 0.1 --ci 50 --patterns seq,random --format json >/tmp/p.json 2>/tmp/err
rc=$?
[ $rc = 0 ] && ok "prefetch runs the pattern study: exit 0" || not_ok "prefetch exit" "rc $rc: $(cat /tmp/err)"
[ "$(wc -l </tmp/err)" = 1 ] && grep -q 'EOPNOTSUPP' /tmp/err && ok "one line citing EOPNOTSUPP: $(cat /tmp/err)" ||
	not_ok "stderr line" "$(cat /tmp/err)"
[ "$(jq -r '[.latency[].pattern] | join(",")' /tmp/p.json)" = "seq,random" ] && ok "both patterns measured" ||
	not_ok "patterns" "$(jq -c .latency /tmp/p.json)"
jq -e '.prefetch_method.why_no_control | test("EOPNOTSUPP")' /tmp/p.json >/dev/null && ok "the JSON says why" ||
	not_ok "why_no_control" "$(jq -c .prefetch_method /tmp/p.json)"
rmmod pagehop && ok "rmmod" || not_ok "rmmod"
