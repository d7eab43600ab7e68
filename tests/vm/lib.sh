# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/lib.sh - build and boot pagehop's QEMU test guests.  Sourced by
# tests/vm/run.sh.
#
# A guest is a Debian kernel from /boot booted under TCG with an initramfs of
# busybox, the pagehop command and its shared libraries, its test build
# (pagehop-test), jq, the module built for that kernel, the test helpers
# (build/vm/*) and tests/vm/guest/*.sh.
# The guest's init runs the listed tests, each printing TAP, on the second
# serial port (ttyS1); the kernel's console is the first (ttyS0), and both
# are files the host reads after QEMU exits.

VM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_BUILD=${VM_BUILD:-$VM_ROOT/build}

vm_die() {
	echo "vm: $*" >&2
	exit 1
}

# vm_find_kernel 6.1 -> sets VM_KVER, VM_VMLINUZ, VM_KDIR for the newest
# installed kernel of that series that has both an image and headers.
vm_find_kernel() {
	local series=$1 v best=
	for d in /lib/modules/*/; do
		v=$(basename "$d")
		case "$v" in "$series".*) ;; *) continue ;; esac
		[ -f "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ] || continue
		if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -n1)" = "$v" ]; then
			best=$v
		fi
	done
	[ -n "$best" ] || return 1
	VM_KVER=$best
	VM_VMLINUZ=/boot/vmlinuz-$best
	VM_KDIR=/lib/modules/$best/build
}

# vm_roundtrip_open SERIES BOOT NAME: a round trip's opening, for the
# kernel of SERIES (vm_find_kernel): src, the TAP log of the BOOT guest
# whose output it gives back, and out, an empty
# $VM_BUILD/vm-results/$VM_KVER/NAME for its files.
vm_roundtrip_open() {
	vm_find_kernel "$1" || vm_die "no kernel $1"
	src=$VM_BUILD/vm-results/$VM_KVER/$2/tap.log
	out=$VM_BUILD/vm-results/$VM_KVER/$3
	rm -rf "$out"
	mkdir -p "$out"
}

# vm_tap_file NAME: the lines a guest printed between "### file NAME" and
# "### end file" in $src, its TAP log's carriage returns taken out.
vm_tap_file() {
	tr -d '\r' <"$src" | sed -n "/^### file $1\$/,/^### end file\$/p" | sed '1d;$d'
}

# Copy a binary and the shared libraries it needs into root $1.
vm_copy_binary() {
	local root=$1 bin=$2 dest=${3:-$2} lib
	install -D -m 0755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}

# vm_build_initramfs OUT ENVFILE TESTS... -> OUT (a gzip'd newc cpio).
vm_build_initramfs() {
	local out=$1 envfile=$2 root t h
	shift 2
	root=$(mktemp -d)
	mkdir -p "$root"/{bin,sbin,usr/bin,etc,proc,sys,dev,tmp,tests,lib/modules,mnt}
	install -m 0755 /bin/busybox "$root/bin/busybox"
	vm_copy_binary "$root" "$VM_BUILD/pagehop" /usr/bin/pagehop
	# The test build, with its fault-injection hook (Makefile: TEST_BIN).
	vm_copy_binary "$root" "$VM_BUILD/test/pagehop" /usr/bin/pagehop-test
	vm_copy_binary "$root" "$(command -v jq)" /usr/bin/jq
	# iasl compiles the proposed HMAT in the guest (hmat_entries.sh); hwloc's
	# tools read back the exported XML (kernel_view.sh).  Optional: the
	# tests say so and skip where they are missing.
	for h in iasl hwloc-info lstopo-no-graphics; do
		command -v "$h" >/dev/null && vm_copy_binary "$root" "$(command -v "$h")" "/usr/bin/$h"
	done
	for h in "$VM_BUILD"/vm/*; do
		[ -x "$h" ] && [ -f "$h" ] && vm_copy_binary "$root" "$h" "/usr/bin/$(basename "$h")"
	done
	if [ -n "${VM_MODULE:-}" ]; then
		install -m 0644 "$VM_MODULE" "$root/lib/modules/pagehop.ko"
	fi
	[ -n "${VM_CXL_CDAT:-}" ] && vm_add_cxl "$root"
	install -m 0755 "$VM_ROOT/tests/vm/guest/init" "$root/init"
	install -m 0644 "$VM_ROOT/tests/vm/guest/tap.sh" "$root/tests/tap.sh"
	for t in "$@"; do
		[ -f "$VM_ROOT/tests/vm/guest/$t.sh" ] || vm_die "no guest test tests/vm/guest/$t.sh"
		install -m 0755 "$VM_ROOT/tests/vm/guest/$t.sh" "$root/tests/$t.sh"
	done
	for d in "$VM_ROOT"/tests/vm/guest/data "$VM_ROOT"/tests/data; do
		[ -d "$d" ] && cp -r "$d" "$root/tests/"
	done
	install -m 0644 "$envfile" "$root/etc/pagehop-vm.env"
	printf '%s\n' "$@" >"$root/etc/pagehop-vm.tests"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
	rm -rf "$root"
}

# ---- machine configurations ------------------------------------------------
#
# Each vm_config_NAME sets:
#   VM_QEMU_NUMA  the -numa/-object/-machine arguments
#   VM_APPEND     extra kernel command line
#   VM_ENV        lines for /etc/pagehop-vm.env: what the guest should see
#
# numa4: 4 nodes of 2 GiB, one CPU each (each its own socket, else the guest
# kernel warns about CPUs sharing a cache across nodes), a SLIT with two near
# pairs {0,1} and {2,3} at 16 and the rest at 22, and HMAT figures for every
# initiator/target pair.  One 1 GiB page is reserved on node 2 at boot.

# vm_numa_nodes [GIB]: 4 nodes of GIB GiB each (default 2).
vm_numa_nodes() {
	local n gib=${1:-2}
	VM_QEMU_NUMA=(-machine q35,hmat=on -m $((gib * 4))G -smp 4,sockets=4,cores=1,threads=1)
	for n in 0 1 2 3; do
		VM_QEMU_NUMA+=(-object "memory-backend-ram,id=m$n,size=${gib}G"
			-numa "node,nodeid=$n,cpus=$n,memdev=m$n,initiator=$n")
	done
}

# vm_slit_args "10 16 22 22 16 10 ...": -numa dist for every pair i<j.
vm_slit_args() {
	local -a m
	local i j
	read -r -a m <<<"$1"
	for i in 0 1 2 3; do
		for j in 0 1 2 3; do
			[ "$i" -lt "$j" ] || continue
			VM_QEMU_NUMA+=(-numa "dist,src=$i,dst=$j,val=${m[$((i * 4 + j))]}")
		done
	done
}

# HMAT: latency in ns and bandwidth in MiB/s per distance class, so each
# node's best initiator (itself) sees the local figures.  One entry is out
# of order on purpose: 0 -> 2 at 110 ns where the SLIT's 22 is farther than
# 0 -> 1's 16 (130 ns); each node's best initiator is still itself.  The
# guest gets every entry, row-major, in VM_HMAT_LAT and VM_HMAT_BW
# (hmat_entries.sh reads them back from the raw table).
VM_HMAT_LOCAL_LAT=80
VM_HMAT_LOCAL_BW=20480

vm_hmat_args() {
	local -a m
	local i j d lat bw
	read -r -a m <<<"$1"
	VM_HMAT_LAT= VM_HMAT_BW=
	for i in 0 1 2 3; do
		for j in 0 1 2 3; do
			d=${m[$((i * 4 + j))]}
			if [ "$d" -eq 10 ]; then lat=$VM_HMAT_LOCAL_LAT bw=$VM_HMAT_LOCAL_BW
			elif [ "$d" -le 16 ]; then lat=130 bw=10240
			else lat=200 bw=5120; fi
			[ "$i$j" = 02 ] && [ "$d" -gt 16 ] && lat=110
			VM_HMAT_LAT+="${VM_HMAT_LAT:+ }$lat" VM_HMAT_BW+="${VM_HMAT_BW:+ }$bw"
			VM_QEMU_NUMA+=(-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-latency,latency=$lat"
				-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-bandwidth,bandwidth=${bw}M")
		done
	done
}

# vm_config_with_slit "SLIT row-major" [GIB]: 4 nodes of GIB GiB (default 2)
# with that SLIT and HMAT.
#
# nokaslr: with physical KASLR the kernel image may land anywhere, also in
# node 2's only free aligned GiB; the boot-time 1 GiB page then silently
# falls back to another node (memblock_alloc_try_nid_raw), and 1 GiB
# contiguous allocations become a matter of luck.
vm_config_with_slit() {
	vm_numa_nodes "${2:-2}"
	vm_slit_args "$1"
	vm_hmat_args "$1"
	VM_APPEND="nokaslr hugepagesz=1G hugepages=2:1"
	VM_ENV="VM_NODES=4
VM_SLIT='$1'
VM_HMAT_LOCAL_LAT=$VM_HMAT_LOCAL_LAT
VM_HMAT_LOCAL_BW=$VM_HMAT_LOCAL_BW
VM_HMAT_LAT='$VM_HMAT_LAT'
VM_HMAT_BW='$VM_HMAT_BW'
VM_HP1G_NODE=2
VM_NODE_GIB=${2:-2}"
}

vm_config_numa4() {
	vm_config_with_slit "10 16 22 22 16 10 22 22 22 22 10 16 22 22 16 10"
}

# numa4big: numa4 with 3 GiB nodes, for pagehop.ko's tests: early
# unmovable allocations fill a node from the bottom and its memmap sits at
# the top, so only a node of 3 GiB or more keeps an aligned GiB free for
# 1 GiB buffers (alloc_contig_range), as large machines do.
vm_config_numa4big() {
	vm_config_with_slit "10 16 22 22 16 10 22 22 22 22 10 16 22 22 16 10" 3
}

# numa4movable: numa4big booted with movablecore=6G.  The kernel spreads
# the other 6 GiB of kernel memory over the nodes from the bottom (node 0's
# 2 GiB below 4G count towards it), so each node keeps a ZONE_NORMAL or
# ZONE_DMA32 part and its upper part is ZONE_MOVABLE, with free aligned GiBs
# in it that pinned buffers must not take (kmod_movable.sh).
vm_config_numa4movable() {
	vm_config_numa4big
	VM_APPEND="$VM_APPEND movablecore=6G"
}

# flat11: every remote pair at 11.
vm_config_flat11() {
	vm_config_with_slit "10 11 11 11 11 10 11 11 11 11 10 11 11 11 11 10"
}

# remote10: a SLIT of 10 everywhere, which QEMU builds (it requires 10 on
# the diagonal and nothing below 10) and Linux ignores (slit_valid() in
# drivers/acpi/numa/srat.c: off the diagonal, above 10): the guest's
# kernel uses 10 local, 20 remote.
vm_config_remote10() {
	vm_config_with_slit "10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10"
	VM_ENV="$VM_ENV
VM_LINUX_SLIT='10 20 20 20 20 10 20 20 20 20 10 20 20 20 20 10'"
}


# numa4smt: 8 vCPUs with SMT, 2 sockets of 2 nodes (QEMU dies), each node
# one core of 2 threads (CPUs 2n and 2n+1 on node n), the numa4 SLIT (16
# within a socket, 22 across) and 1 GiB a node.  The guest kernel warns
# (WARNING, topology_sane) when a last-level cache spans two nodes: TCG's
# max CPU is an AMD family 0xf, whose LLC Linux takes to be the package's,
# so the CPU says Intel (LLC from CPUID leaf 4) without an L3 (the LLC is
# then the core's L2).  For the placement and go-around tests (smt.sh).
vm_config_numa4smt() {
	local n slit="10 16 22 22 16 10 22 22 22 22 10 16 22 22 16 10"
	VM_QEMU_NUMA=(-machine q35,hmat=on -m 4G -smp 8,sockets=2,dies=2,cores=1,threads=2)
	for n in 0 1 2 3; do
		VM_QEMU_NUMA+=(-object "memory-backend-ram,id=m$n,size=1G"
			-numa "node,nodeid=$n,cpus=$((2 * n))-$((2 * n + 1)),memdev=m$n,initiator=$n")
	done
	vm_slit_args "$slit"
	vm_hmat_args "$slit"
	VM_QEMU_CPU=max,vendor=GenuineIntel,l3-cache=off
	VM_APPEND=
	VM_ENV="VM_NODES=4
VM_CPUS=8
VM_SLIT='$slit'"
}

# tier5: numa4 with 1 GiB nodes and a fifth, CPU-less node 4 of 1 GiB (a
# CXL-like expander) at SLIT 30 from every node, whose HMAT figures from
# every initiator are worse: 300 ns and 5120 MiB/s against 80 ns and
# 20480 locally.  Linux 6.7 and later give it an abstract distance of its
# own and a memory tier below the DRAM nodes' (memtier_cpuless.sh).
vm_config_tier5() {
	local n i slit="10 16 22 22 16 10 22 22 22 22 10 16 22 22 16 10"
	VM_QEMU_NUMA=(-machine q35,hmat=on -m 5G -smp 4,sockets=4,cores=1,threads=1)
	for n in 0 1 2 3; do
		VM_QEMU_NUMA+=(-object "memory-backend-ram,id=m$n,size=1G"
			-numa "node,nodeid=$n,cpus=$n,memdev=m$n,initiator=$n")
	done
	VM_QEMU_NUMA+=(-object "memory-backend-ram,id=m4,size=1G" -numa "node,nodeid=4,memdev=m4,initiator=0")
	vm_slit_args "$slit"
	vm_hmat_args "$slit"
	for i in 0 1 2 3; do
		VM_QEMU_NUMA+=(-numa "dist,src=$i,dst=4,val=30"
			-numa "hmat-lb,initiator=$i,target=4,hierarchy=memory,data-type=access-latency,latency=300"
			-numa "hmat-lb,initiator=$i,target=4,hierarchy=memory,data-type=access-bandwidth,bandwidth=5120M")
	done
	VM_APPEND=
	VM_ENV="VM_NODES=5
VM_SLIT='$slit'"
}

# The slit machines with guest time counted in instructions (-icount): a
# vCPU's time is then the instructions it ran, every load costs the same
# whatever node it reads, and a measured matrix is exactly flat, as the
# flat-verdict tests need.  Plain TCG timings follow the host's load instead.
# Debian's 6.1 kernel never finishes bringing up its secondary CPUs under
# icount (seen with shifts 1 to 5, several CPU models and boot options), so
# these run on 6.12 only (plan: CONFIG@6.12).
vm_config_numa4_icount() {
	vm_config_numa4
	VM_QEMU_ACCEL="-accel tcg -icount shift=3,sleep=off"
	VM_ENV="$VM_ENV
VM_ICOUNT=1"
}

vm_config_flat11_icount() {
	vm_config_flat11
	VM_QEMU_ACCEL="-accel tcg -icount shift=3,sleep=off"
	VM_ENV="$VM_ENV
VM_ICOUNT=1"
}

# cxl: 2 nodes of 2 GiB with a CPU each (HMAT: 80 ns, 20480 MiB/s local;
# 130 ns, 10240 remote) and a CXL type-3 memory expander of 512 MiB behind
# a pxb-cxl host bridge (bus 12, so _UID 12 and pci0000:0c) and a CXL root
# port, in a 4 GiB fixed memory window.  QEMU 7.2 emulates persistent
# memory only: the guest makes it a region, a devdax namespace and then
# system RAM (cxl.sh), a CPU-less node.  What it needs of QEMU 7.2 and
# Linux 6.12:
#   pcie_ports=compat   else the OS takes CXL error reporting over _OSC,
#                       cxl_pci wants an event-log interrupt QEMU does not
#                       offer, and its probe fails (no mem0);
#   hypervisor=off      else committing the region fails with a WARNING
#                       ("Failed to synchronize CPU cache state");
#   a generic port and a QTG _DSM (cxl_tables.py acpi) as table upgrades,
#                       else the kernel computes no access coordinates;
#   the device's CDAT from a file (cxl_tables.py cdat) with the figures
#                       below, which the guest reads back.
VM_CXL_MIB=512
VM_CXL_CDAT_FIG="150 250 12000 8000"	# read, write latency ns; read, write MB/s
VM_CXL_GP_LAT="50 100"			# HMAT, initiators 0 and 1 -> the generic port
VM_CXL_GP_BW="30000 15000"
VM_CXL_UID=12
VM_CXL_GP_PXM=4

vm_config_cxl() {
	local n i j lat bw
	VM_QEMU_NUMA=(-machine q35,cxl=on,hmat=on -m 4G,maxmem=8G,slots=4 -smp 2,sockets=2,cores=1,threads=1)
	for n in 0 1; do
		VM_QEMU_NUMA+=(-object "memory-backend-ram,id=m$n,size=2G"
			-numa "node,nodeid=$n,cpus=$n,memdev=m$n,initiator=$n")
	done
	for i in 0 1; do
		for j in 0 1; do
			if [ $i = $j ]; then lat=80 bw=20480; else lat=130 bw=10240; fi
			VM_QEMU_NUMA+=(-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-latency,latency=$lat"
				-numa "hmat-lb,initiator=$i,target=$j,hierarchy=memory,data-type=access-bandwidth,bandwidth=${bw}M")
		done
	done
	VM_QEMU_CPU=max,hypervisor=off
	VM_APPEND="nokaslr pcie_ports=compat"
	VM_CXL_DEVS=1 VM_CXL_DEV_MIB=$VM_CXL_MIB VM_CXL_FMW_IG= VM_CXL_PORT_BW=$VM_CXL_GP_BW
	VM_ENV="VM_NODES=2
VM_CXL_MIB=$VM_CXL_MIB
VM_CXL_CDAT_FIG='$VM_CXL_CDAT_FIG'
VM_CXL_GP_LAT='$VM_CXL_GP_LAT'
VM_CXL_GP_BW='$VM_CXL_GP_BW'
VM_CXL_HOST_BRIDGE=pci0000:$(printf %02x $VM_CXL_UID)"
}

# vm_prepare_cxl OUTDIR: the CXL devices (VM_CXL_DEVS of them, VM_CXL_DEV_MIB
# each, each on its own root port of the one host bridge, with the CDAT figures
# VM_CXL_CDAT_FIG, then VM_CXL_CDAT_FIG1), with their backing files and
# CDATs in OUTDIR, and the ACPI upgrade for this very machine
# (VM_EXTRA_INITRD).  With two devices the window has one target, the host
# bridge, which interleaves over its two root ports.
vm_prepare_cxl() {
	local out=$1 i fig cdat
	command -v python3 >/dev/null || { echo "vm: python3 missing (cxl_tables.py)" >&2; return 1; }
	command -v iasl >/dev/null || { echo "vm: iasl missing: scripts/install-deps.sh check" >&2; return 1; }
	VM_CXL_CDAT= VM_SCRATCH=
	VM_QEMU_NUMA+=(-device "pxb-cxl,bus_nr=$VM_CXL_UID,bus=pcie.0,id=cxl.1")
	for ((i = 0; i < ${VM_CXL_DEVS:-1}; i++)); do
		cdat=$out/cxl$i.cdat fig=$VM_CXL_CDAT_FIG
		[ "$i" = 0 ] && cdat=$out/cxl.cdat
		[ "$i" = 1 ] && fig=$VM_CXL_CDAT_FIG1
		VM_CXL_CDAT="$VM_CXL_CDAT $cdat"
		# VM_CXL_CDAT_FILE, when set, is device 0's CDAT (tests/vm/cxl_roundtrip.sh).
		if [ "$i" = 0 ] && [ -n "${VM_CXL_CDAT_FILE:-}" ]; then
			cp "$VM_CXL_CDAT_FILE" "$cdat" || return 1
		else
			# shellcheck disable=SC2086 # the four figures
			python3 "$VM_ROOT/tests/vm/cxl_tables.py" cdat "$cdat" $VM_CXL_DEV_MIB $fig || return 1
		fi
		rm -f "$out/cxl-mem$i" "$out/cxl-lsa$i"
		VM_QEMU_NUMA+=(-object "memory-backend-file,id=cxl-mem$i,share=on,mem-path=$out/cxl-mem$i,size=${VM_CXL_DEV_MIB}M"
			-object "memory-backend-file,id=cxl-lsa$i,share=on,mem-path=$out/cxl-lsa$i,size=256M"
			-device "cxl-rp,port=$i,bus=cxl.1,id=root_port$((13 + i)),chassis=0,slot=$((2 + i))"
			-device "cxl-type3,bus=root_port$((13 + i)),memdev=cxl-mem$i,lsa=cxl-lsa$i,id=cxl-pmem$i,cdat=$cdat")
		VM_SCRATCH="$VM_SCRATCH $out/cxl-mem$i $out/cxl-lsa$i"
	done
	VM_CXL_CDAT=${VM_CXL_CDAT# }
	VM_QEMU_NUMA+=(-M "cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G${VM_CXL_FMW_IG:+,cxl-fmw.0.interleave-granularity=$VM_CXL_FMW_IG}")
	rm -rf "$out/acpi"
	python3 "$VM_ROOT/tests/vm/cxl_tables.py" acpi "$out/acpi" $VM_CXL_UID $VM_CXL_GP_PXM \
		"$VM_CXL_GP_LAT" "$VM_CXL_PORT_BW" -cpu "$VM_QEMU_CPU" "${VM_QEMU_NUMA[@]}" || return 1
	VM_EXTRA_INITRD=$out/acpi/acpi.cpio
}

# cxl2: the cxl machine with two expanders of 256 MiB, one per root port of
# the host bridge, each with its own CDAT (device 1 slower, so that the
# composition of the 2-way interleaved region shows), in a window
# interleaved at 4 KiB; cxl2.sh makes the region over both.  The generic
# port's bandwidth (500, 400 MB/s) lies between one device's path (312,
# the link's) and the two together (624): the region's figure shows
# whether the port bounds each device or the bridge's sum.
VM_CXL2_CDAT_FIG1="300 400 6000 4000"
VM_CXL2_GP_BW="500 400"
vm_config_cxl2() {
	vm_config_cxl
	VM_CXL_DEVS=2 VM_CXL_DEV_MIB=256 VM_CXL_CDAT_FIG1=$VM_CXL2_CDAT_FIG1 VM_CXL_FMW_IG=4k
	VM_CXL_PORT_BW=$VM_CXL2_GP_BW
	VM_ENV="$VM_ENV
VM_CXL_DEVS=2
VM_CXL_MIB=256
VM_CXL_CDAT_FIG1='$VM_CXL2_CDAT_FIG1'
VM_CXL_GP_BW='$VM_CXL2_GP_BW'"
}
vm_prepare_cxl2() {
	vm_prepare_cxl "$@"
}

# The CXL guest's extras in initramfs root $1: cxl, ndctl and daxctl (Debian's
# ndctl and daxctl) with their libraries, when installed (cxl.sh skips
# without them); the CXL, DAX and NVDIMM modules of the guest's kernel,
# uncompressed (/lib/modules/cxl), and the module index libkmod reads; the
# guests' setup (cxl_lib.sh); the CDATs given to QEMU (/etc/pagehop-cxl.cdat,
# a second device's /etc/pagehop-cxl1.cdat).
vm_add_cxl() {
	local root=$1 b m mods=/lib/modules/$VM_KVER
	for b in cxl ndctl daxctl; do
		command -v "$b" >/dev/null && vm_copy_binary "$root" "$(command -v "$b")" "/usr/bin/$b"
	done
	mkdir -p "$root/lib/modules/cxl" "$root$mods"
	for m in nvdimm/libnvdimm nvdimm/nd_btt nvdimm/nd_pmem dax/device_dax dax/dax_pmem dax/kmem \
		cxl/cxl_acpi cxl/cxl_pci cxl/cxl_mem cxl/cxl_pmem dax/dax_cxl; do
		if [ -f "$mods/kernel/drivers/$m.ko.xz" ]; then
			xz -dc "$mods/kernel/drivers/$m.ko.xz" >"$root/lib/modules/cxl/${m#*/}.ko"
		elif [ -f "$mods/kernel/drivers/$m.ko" ]; then
			cp "$mods/kernel/drivers/$m.ko" "$root/lib/modules/cxl/"
		fi
	done
	cp "$mods"/modules.* "$root$mods/" 2>/dev/null
	install -m 0644 "$VM_ROOT/tests/vm/guest/cxl_lib.sh" "$root/tests/cxl_lib.sh"
	# shellcheck disable=SC2086 # a list of paths without blanks
	set -- $VM_CXL_CDAT
	install -m 0644 "$1" "$root/etc/pagehop-cxl.cdat"
	[ $# -gt 1 ] && install -m 0644 "$2" "$root/etc/pagehop-cxl1.cdat"
	return 0
}

# vm_boot CONFIG TIMEOUT OUTDIR TESTS... -> OUTDIR/{console,tap}.log
# VM_EXTRA_INITRD, if set, is a cpio put in front of the initramfs (ACPI
# table upgrades).  Returns QEMU's status (124 on timeout).
vm_boot() {
	local config=$1 timeout=$2 out=$3 initrd rc
	# A machine's own upgrade (vm_prepare_CONFIG) lasts for its boot only.
	local VM_EXTRA_INITRD=${VM_EXTRA_INITRD:-}
	shift 3
	VM_QEMU_ACCEL= VM_QEMU_CPU= VM_CXL_CDAT= VM_SCRATCH=
	"vm_config_$config" || vm_die "unknown machine config '$config'"
	mkdir -p "$out"
	# vm_prepare_CONFIG OUTDIR, where there is one: files the machine needs.
	if declare -F "vm_prepare_$config" >/dev/null; then
		"vm_prepare_$config" "$out" || vm_die "cannot prepare machine '$config'"
	fi
	printf '%s\nVM_CONFIG=%s\nVM_KVER=%s\n%s\n' "$VM_ENV" "$config" "$VM_KVER" \
		"${VM_ENV_EXTRA:-}" >"$out/env"
	vm_build_initramfs "$out/initramfs.gz" "$out/env" "$@"
	initrd=$out/initramfs.gz
	if [ -n "${VM_EXTRA_INITRD:-}" ]; then
		cat "$VM_EXTRA_INITRD" "$out/initramfs.gz" >"$out/initrd-combined"
		initrd=$out/initrd-combined
	fi
	rm -f "$out/console.log" "$out/tap.log"
	# thread=single: with multi-threaded TCG a guest now and then dies at
	# boot with "Oops: int3" in freshly patched kernel text (a vCPU runs a
	# stale translation while another patches static keys); one host
	# thread for all vCPUs costs ~10% on the module suite and ends that.
	# It also keeps the vCPUs from competing for the host's cores, so a
	# vCPU measuring is not descheduled by its idle siblings.
	timeout --kill-after=10 "$timeout" qemu-system-x86_64 ${VM_QEMU_ACCEL:--accel tcg,thread=single} -cpu ${VM_QEMU_CPU:-max} \
		"${VM_QEMU_NUMA[@]}" \
		-kernel "$VM_VMLINUZ" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic $VM_APPEND" \
		-display none -no-reboot -nic none \
		-serial "file:$out/console.log" -serial "file:$out/tap.log" \
		</dev/null >"$out/qemu.log" 2>&1
	rc=$?
	# shellcheck disable=SC2086 # a list of paths without blanks
	[ -n "$VM_SCRATCH" ] && rm -f $VM_SCRATCH
	return $rc
}

VM_KERNEL_PROBLEMS='bad pud|bad pmd|bad page|BUG:|WARNING:|refcount_t|soft lockup|rcu.*stall|Oops|general protection|Call Trace|Kernel panic|UBSAN|KASAN|list_del corruption'

# vm_check OUTDIR TESTS... -> 0 if every test ran its plan with no failure and
# the kernel log is clean.  Prints a TAP-like summary line per test.
vm_check() {
	local out=$1 t block plan nok nnotok rc fail=0
	shift
	for t in "$@"; do
		block=$(tr -d '\r' <"$out/tap.log" | awk -v t="$t" '
			$0 == "### begin " t {on=1; next}
			on && index($0, "### end " t " ") == 1 {print; exit}
			on {print}')
		if ! grep -q "^### end $t " <<<"$block"; then
			echo "not ok - $t: no result (guest crashed, hung or timed out)"
			fail=1
			continue
		fi
		rc=$(sed -n "s/^### end $t rc=//p" <<<"$block")
		plan=$(grep -m1 -E '^1\.\.[0-9]+' <<<"$block" | cut -d. -f3)
		nok=$(grep -cE '^ok ' <<<"$block")
		nnotok=$(grep -cE '^not ok ' <<<"$block")
		if [ -z "$plan" ] || [ $((nok + nnotok)) -ne "$plan" ] || [ "$nnotok" -ne 0 ] || [ "$rc" != 0 ]; then
			echo "not ok - $t: plan ${plan:-missing}, $nok ok, $nnotok not ok, exit $rc"
			grep -E '^not ok|^#' <<<"$block" | sed 's/^/    /'
			fail=1
		else
			echo "ok - $t: $nok/$plan"
		fi
	done
	# What the kernel says when something went wrong, whether or not it
	# then stopped: page-table entries it found corrupt and cleared (bad
	# pud, bad pmd, bad page), warnings and BUGs, reference counts gone
	# wrong (refcount_t: underflow; use-after-free), CPUs stuck.
	if grep -nE "$VM_KERNEL_PROBLEMS" "$out/console.log" >"$out/kernel-problems"; then
		echo "not ok - kernel log of the guest is not clean:"
		head -n 20 "$out/kernel-problems" | sed 's/^/    /'
		fail=1
	fi
	return $fail
}
