# SPDX-License-Identifier: GPL-2.0-only
# pages_frames.sh - "pagehop pages --same-frames": one pagehop.ko allocation
# of 1 GiB pages swept under 4 KiB, 2 MiB and 1 GiB translations, QUERY
# showing each view at its level on the same frames (the document says so,
# with the leaf counts a GiB must have); the chain each view chased, read
# back from its memory, is the same slots in the same order, and the one
# kmodtest builds over plain memory with the seed (a second path: the
# builder's own chain, followed link by link), each working set's two
# chains written once and rebased into the two other views (the count the
# document gives against the one worked out from the rows); the default
# (auto) takes the
# same frames where the module can, and where it cannot (6.1: no 1 GiB
# pages from the module) falls back and says why; --same-frames=off takes
# one allocation per page size and the document says the frames differ;
# where the module has no 1 GiB pages (6.1) --same-frames is refused with
# exit 4.
. /tests/tap.sh
plan 6
# pagehop pages with a short sweep; JSON in /tmp/pf.json, stderr in /tmp/pf.err.
pages() {
	pagehop pages --min 16K --max 1M --time 0.05 --ci 5 --format json "$@" >/tmp/pf.json 2>/tmp/pf.err
}
field() { jq -r ".pages_method.$1" /tmp/pf.json 2>/dev/null; }
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
	skip "each view chased the same chain" "no 1 GiB pages from pagehop.ko on $VM_KVER"
	skip "chains rebased into the other views" "no 1 GiB pages from pagehop.ko on $VM_KVER"
	# auto, the default: one allocation per page size, nothing on stderr, the why in the document.
	pages --max 64K
	rc=$?
	case "$rc:$(field same_frames):$(field frames):$(field frames_why):$(cat /tmp/pf.err)" in
	"0:auto:differ:1 GiB pages from pagehop.ko cannot be had"*:)
		ok "auto falls back where the module has no 1 GiB pages: $(field frames_why)" ;;
	*) not_ok "auto falls back" "rc $rc, '$(field same_frames)' '$(field frames)' '$(field frames_why)': $(cat /tmp/pf.err)" ;;
	esac
	;;
*)
	# The first node with a free aligned GiB (gib_nodes).  A GiB freed by
	# one run may not be whole for the next, so each run that needs one
	# looks for it, the same node again included.
	for n in $(gib_nodes); do
		pages --same-frames --membind $n
		rc=$?
		[ $rc = 4 ] && grep -q "not enough contiguous" /tmp/pf.err && continue
		break
	done
	f=$(field frames) v4=$(field view_4K) v2=$(field view_2M) v1=$(field view_1G)
	ps=$(jq -r '[.pages[].page_size] | unique | join(",")' /tmp/pf.json 2>/dev/null)
	if [ $rc = 0 ] && [ "$f" = same ] && [ "$ps" = 1G,2M,4K ] &&
		case "$v4:$v2:$v1" in "262144 PTE leaves"*:"512 PMD leaves"*:"1 PUD leaves"*) true ;; *) false ;; esac; then
		ok "--same-frames on node $n: frames $f, sweeps $ps"
		diag "$v4"; diag "$v2"; diag "$v1"
	else
		not_ok "--same-frames" "rc $rc, frames '$f', sweeps '$ps', views '$v4' '$v2' '$v1': $(cat /tmp/pf.err)"
	fi
	# Same slots, same order: each view's chain at 1 MiB as pagehop read it
	# from that view's memory, and the reference chain for the seed.
	c4=$(field chain_4K) c2=$(field chain_2M) c1=$(field chain_1G)
	ref=$(kmodtest chain-order 1M "$(field seed)")
	case "$ref" in
	"16384 hops from +0x0: +0x"*"; fnv1a 0x"*)
		if [ "$c4" = "$ref" ] && [ "$c2" = "$ref" ] && [ "$c1" = "$ref" ]; then
			ok "each view chased the same chain: $ref"
		else
			not_ok "each view chased the same chain" "reference '$ref'; 4K '$c4'; 2M '$c2'; 1G '$c1'"
		fi ;;
	*) not_ok "each view chased the same chain" "kmodtest chain-order: '$ref'" ;;
	esac
	# Each working set's random and tlb chains are written in the first
	# view and rebased into the two others: 2 x 2 a working set, the
	# working sets counted from the 4K rows (16K to 1M: 7, so 28).
	rb=$(field chains_rebased)
	nws=$(jq '[.pages[] | select(.page_size == "4K")] | length' /tmp/pf.json 2>/dev/null)
	if [ -n "$nws" ] && [ "$nws" -gt 0 ] && [ "$rb" = $((4 * nws)) ]; then
		ok "chains rebased into the other views: $rb for $nws working sets"
	else
		not_ok "chains rebased into the other views" "chains_rebased '$rb', $nws working sets of 4K"
	fi
	# The same verdict must come from a different path: the module's own
	# count of pinned bytes is back to 0 once pagehop has exited.
	kmodtest info >/tmp/kinfo && . /tmp/kinfo
	[ "$pinned" = 0 ] && ok "nothing pinned after the sweep" || not_ok "pinned after the sweep" "$pinned"
	# auto, the default, takes the same frames where the module can: on
	# the node above, or on the first other one with a free aligned GiB (a
	# node without one makes auto fall back and say so).
	tried=
	for m in $n $(gib_nodes); do
		pages --max 64K --membind $m
		rc=$?
		tried="$tried $m"
		[ $rc = 0 ] && [ "$(field frames)" = differ ] &&
			case "$(field frames_why)" in *"not enough contiguous"*) true ;; *) false ;; esac && continue
		break
	done
	[ "$tried" = " $n" ] || diag "auto ran on nodes$tried: the ones before the last had no whole free GiB then"
	# THP, in the default set where the guest has it, is anonymous memory:
	# its own allocation beside the views, its rows "differ".
	case "$rc:$(field same_frames):$(field frames):$(jq -r '[.pages[] | select(.page_size != "THP") | .frames] | unique | join(",")' /tmp/pf.json):$(jq -r '[.pages[] | select(.page_size == "THP") | .frames] | unique | join(",")' /tmp/pf.json)" in
	0:auto:same:same:|0:auto:same:same:differ) ok "auto takes the same frames with the module on node $m: $(field view_4K)" ;;
	*) not_ok "auto with the module" "rc $rc, '$(field same_frames)' '$(field frames)' '$(field frames_why)': $(cat /tmp/pf.err)" ;;
	esac
	;;
esac
pages --page-sizes 4k --same-frames=off
rc=$?
f=$(field frames) held=$(field held_fixed)
case "$rc:$f:$(field frames_why):$held" in
0:differ:--same-frames=off:*"physical pages differ"*) ok "--same-frames=off: frames differ, as the document says" ;;
*) not_ok "--same-frames=off" "rc $rc, frames '$f', held_fixed '$held': $(cat /tmp/pf.err)" ;;
esac
