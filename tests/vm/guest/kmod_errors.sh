# SPDX-License-Identifier: GPL-2.0-only
# kmod_errors.sh - every error path of the ABI, one test each, with the
# errno docs/abi.md gives.
. /tests/tap.sh
plan 15

check "bad node: EINVAL" kmodtest err bad-node
check "bad page size: EINVAL" kmodtest err bad-page-size
check "length 0 or not a multiple of the page size: EINVAL" kmodtest err bad-length
check "over the pin cap: E2BIG" kmodtest err over-cap
p=/sys/module/pagehop/parameters/max_pinned_mb
echo 8 >$p
check "max_pinned_mb=8 caps the sum of buffers: E2BIG" kmodtest err cap-sum
echo 0 >$p
check "below the node's 5% floor: E2BIG" kmodtest err node-floor
check "non-zero reserved fields and flags: EINVAL" kmodtest err reserved
check "short struct: EINVAL (and a longer one only with a zero tail)" kmodtest err short-struct
check "unknown ioctl: ENOTTY; unknown id: ENOENT" kmodtest err unknown-ioctl
check "MAP_PRIVATE: EINVAL" kmodtest err map-private
check "mmap beyond the buffer: EINVAL" kmodtest err map-beyond
check "mmap offset or length not a multiple of the page size: EINVAL" kmodtest err map-misaligned
check "open without root or without CAP_SYS_ADMIN: EACCES, EPERM" kmodtest err non-root
check "over RLIMIT_MEMLOCK without CAP_IPC_LOCK: EPERM; VmPin counts what is pinned" kmodtest err memlock
# The command says what to change.
if kmodtest limited 64 pagehop chase --backend kmod --membind 0 --cpunodebind 0 --page-size 4k \
	--size 1M --time 0.05 --ci 50 >/tmp/out 2>/tmp/err; then
	not_ok "pagehop over RLIMIT_MEMLOCK: measured anyway" "$(cat /tmp/out)"
elif grep -q 'raise ulimit -l (RLIMIT_MEMLOCK) or run with CAP_IPC_LOCK' /tmp/err && [ ! -s /tmp/out ]; then
	ok "pagehop over RLIMIT_MEMLOCK: $(head -n1 /tmp/err)"
else
	not_ok "pagehop over RLIMIT_MEMLOCK: no clear reason" "$(cat /tmp/err)"
fi
