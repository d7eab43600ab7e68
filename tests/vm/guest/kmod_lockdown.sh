# SPDX-License-Identifier: GPL-2.0-only
# kmod_lockdown.sh - PREFETCH SET under kernel lockdown is EPERM, as
# writes through /dev/cpu/N/msr are.  Lockdown cannot be lifted once set and
# refuses unsigned modules, so this runs last in its guest (tests/vm/plan),
# after loading the module.
. /tests/tap.sh
plan 3
lsmod | grep -q '^pagehop ' || insmod /lib/modules/pagehop.ko
grep -q " /sys/kernel/security " /proc/mounts || mount -t securityfs securityfs /sys/kernel/security
if [ ! -w /sys/kernel/security/lockdown ]; then
	skip "lockdown" "no lockdown LSM in this kernel"
	skip "PREFETCH SET under lockdown" "no lockdown LSM"
else
	echo integrity >/sys/kernel/security/lockdown
	grep -q '\[integrity\]' /sys/kernel/security/lockdown && ok "locked down: $(cat /sys/kernel/security/lockdown)" ||
		not_ok "lockdown" "$(cat /sys/kernel/security/lockdown)"
	check "PREFETCH SET under lockdown: EPERM" kwalk prefetch-lockdown
fi
rmmod pagehop && ok "rmmod under lockdown" || not_ok "rmmod"
