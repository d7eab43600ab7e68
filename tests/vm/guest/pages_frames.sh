# SPDX-License-Identifier: GPL-2.0-only
# pages_frames.sh - "pagehop pages --same-frames": one pagehop.ko allocation
# of 1 GiB pages swept under 4 KiB, 2 MiB and 1 GiB translations, QUERY
# showing each view at its level on the same frames (the document says so,
# with the leaf counts a GiB must have); without the option, each page size
# is its own allocation and the document says the frames differ; where the
# module has no 1 GiB pages (6.1) the option is refused with exit 4.
. /tests/tap.sh
plan 3
# pagehop pages with a short sweep; JSON in /tmp/pf.json, stderr in /tmp/pf.err.
pages() {
	pagehop pages --min 16K --max 1M --time 0.05 --ci 5 --format json "$@" >/tmp/pf.json 2>/tmp/pf.err
}
case "$VM_KVER" in
6.1.*)
	pages --same-frames
	rc=$?
	if [ $rc = 4 ] && [ ! -s /tmp/pf.json ] && grep -q "1 GiB pages from pagehop.ko cannot be had" /tmp/pf.err; then
		ok "--same-frames refused with exit 4: $(cat /tmp/pf.err)"
	else
		not_ok "--same-frames refused with exit 4" "rc $rc: $(cat /tmp/pf.err)"
	fi
	skip "--same-frames sweeps one allocation" "no 1 GiB pages from pagehop.ko on $VM_KVER"
	;;
*)
	# 1 GiB is best effort: the first node with a free aligned GiB.
	for n in 1 2 3 0; do
		pages --same-frames --membind $n
		rc=$?
		[ $rc = 4 ] && grep -q "not enough contiguous" /tmp/pf.err && continue
		break
	done
	f=$(jq -r .pages_method.frames /tmp/pf.json 2>/dev/null)
	v4=$(jq -r .pages_method.view_4K /tmp/pf.json 2>/dev/null)
	v2=$(jq -r .pages_method.view_2M /tmp/pf.json 2>/dev/null)
	v1=$(jq -r .pages_method.view_1G /tmp/pf.json 2>/dev/null)
	ps=$(jq -r '[.pages[].page_size] | unique | join(",")' /tmp/pf.json 2>/dev/null)
	if [ $rc = 0 ] && [ "$f" = same ] && [ "$ps" = 1G,2M,4K ] &&
		case "$v4:$v2:$v1" in "262144 PTE leaves"*:"512 PMD leaves"*:"1 PUD leaves"*) true ;; *) false ;; esac; then
		ok "--same-frames on node $n: frames $f, sweeps $ps"
		diag "$v4"; diag "$v2"; diag "$v1"
	else
		not_ok "--same-frames" "rc $rc, frames '$f', sweeps '$ps', views '$v4' '$v2' '$v1': $(cat /tmp/pf.err)"
	fi
	# The same verdict must come from a different path: the module's own
	# count of pinned bytes is back to 0 once pagehop has exited.
	kmodtest info >/tmp/kinfo && . /tmp/kinfo
	[ "$pinned" = 0 ] && ok "nothing pinned after the sweep" || not_ok "pinned after the sweep" "$pinned"
	;;
esac
pages --page-sizes 4k
rc=$?
f=$(jq -r .pages_method.frames /tmp/pf.json 2>/dev/null)
held=$(jq -r .pages_method.held_fixed /tmp/pf.json 2>/dev/null)
case "$rc:$f:$held" in
0:differ:*"physical pages differ"*) ok "without --same-frames: frames differ, as the document says" ;;
*) not_ok "without --same-frames" "rc $rc, frames '$f', held_fixed '$held': $(cat /tmp/pf.err)" ;;
esac
