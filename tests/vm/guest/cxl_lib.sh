# SPDX-License-Identifier: GPL-2.0-only
# cxl_lib.sh - the CXL guests' setup (busybox sh; source it after tap.sh),
# as cxl, ndctl and daxctl do it on a real machine:
#
#   cxl_missing             the tools and modules missing in the guest, or ""
#   run CMD...              CMD's output into $log; its status
#   cxl_load                the NVDIMM, DAX and CXL modules
#   cxl_wait_endpoints N    wait until N memdevs have endpoints with a CDAT
#   cxl_online ARGS...      cxl create-region ARGS, a devdax namespace on it
#                           and its memory online (movable); sets region, dax
#   cxl_cpuless_node        sets node and kb: the CPU-less node with memory
log=/tmp/cxl.log
cxl_mods="libnvdimm nd_btt nd_pmem device_dax dax_pmem kmem cxl_acpi cxl_pci cxl_mem cxl_pmem dax_cxl"

cxl_missing() {
	_m=
	for b in cxl ndctl daxctl; do command -v $b >/dev/null || _m="$_m $b"; done
	for m in $cxl_mods; do [ -f /lib/modules/cxl/$m.ko ] || _m="$_m $m.ko"; done
	echo "$_m"
}

run() {
	echo "\$ $*" >>$log
	"$@" >/tmp/cxl.out 2>/tmp/cxl.err
	_rc=$?
	cat /tmp/cxl.out /tmp/cxl.err >>$log
	echo "[rc=$_rc]" >>$log
	return $_rc
}

cxl_load() {
	mkdir -p /run
	for m in $cxl_mods; do run insmod /lib/modules/cxl/$m.ko; done
}

# cxl_mem probes asynchronously.
cxl_wait_endpoints() {
	for _ in $(seq 60); do
		_n=0
		for e in /sys/bus/cxl/devices/endpoint*; do
			[ -e "$e/uport" ] && [ -e "$e/CDAT" ] && _n=$((_n + 1))
		done
		[ $_n -ge "$1" ] && return 0
		sleep 1
	done
	return 1
}

# The names from each tool's JSON.
cxl_online() {
	region= dax=
	if run cxl create-region "$@"; then
		region=$(jq -r '.region // empty' /tmp/cxl.out 2>/dev/null)
	fi
	[ -n "$region" ] || region=region0
	if run ndctl create-namespace -m devdax -r "$region" -f; then
		dax=$(jq -r '.daxregion.devices[0].chardev // empty' /tmp/cxl.out 2>/dev/null)
	fi
	[ -n "$dax" ] || dax=dax0.0
	# daxctl refuses memory the kernel onlined itself.
	echo offline >/sys/devices/system/memory/auto_online_blocks
	run daxctl reconfigure-device --mode=system-ram "$dax"
	for b in /sys/devices/system/memory/memory*; do
		[ "$(cat "$b/state")" = offline ] && echo online_movable >"$b/state" 2>>$log
	done
}

# By cpulist and meminfo.
cxl_cpuless_node() {
	node= kb=0
	for d in /sys/devices/system/node/node*; do
		_k=$(awk '/MemTotal/ {print $4}' "$d/meminfo")
		[ -z "$(cat "$d/cpulist")" ] && [ "$_k" -gt 0 ] && node=${d##*node} kb=$_k
	done
}
