#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# install-deps.sh [run|check|bench|all] - install the Debian 12 packages pagehop
# needs for one job, and nothing when they are all present.
#
#   run    build and run the command (make run)
#   check  also the tests: cmocka, clang, the QEMU guests with the 6.1 and 6.12
#          kernels and their headers, iasl, dkms, ndctl and daxctl (the CXL
#          guest's cxl, ndctl, daxctl), and the engines pagehop
#          check runs under: Slurm with munge, node_exporter; chromium,
#          html5lib and xmllint for the report's page, debhelper, dh-dkms
#          and lintian for make deb, bash-completion (make check)
#   bench  also the peers bench/ compares against (likwid), gnuplot, and jq,
#          with which the bench/ scripts read pagehop's JSON
#
# Silent when everything is installed.  Not root and something missing: one
# line naming the packages, exit 1.  Packages come from Debian's archive only.
set -euo pipefail

job=${1:-run}

run_pkgs=(gcc make pkg-config libc6-dev
	libnuma-dev libhwloc-dev libcpuid-dev libjson-c-dev libpfm4-dev)
check_pkgs=(clang libcmocka-dev jq numactl hwloc-nox
	qemu-system-x86 busybox-static cpio kmod
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	acpica-tools dkms gnuplot-nox stress-ng ndctl daxctl
	slurm-wlm munge prometheus-node-exporter prometheus bc
	chromium python3-html5lib libxml2-utils
	dpkg-dev debhelper dh-dkms lintian fakeroot bash-completion)
bench_pkgs=(likwid gnuplot-nox jq)

case "$job" in
run) want=("${run_pkgs[@]}") ;;
check) want=("${run_pkgs[@]}" "${check_pkgs[@]}") ;;
bench) want=("${run_pkgs[@]}" "${bench_pkgs[@]}") ;;
all) want=("${run_pkgs[@]}" "${check_pkgs[@]}" "${bench_pkgs[@]}") ;;
*)
	echo "install-deps.sh: unknown job '$job': expected run, check, bench or all" >&2
	exit 2
	;;
esac

missing=()
for p in "${want[@]}"; do
	# "install ok installed" is the only state in which the files are there.
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "pagehop: missing Debian packages: ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "pagehop: installing ${missing[*]}" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Try without refreshing the lists first; a fresh machine may have stale or
# no lists, in which case update once and retry.
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
	apt-get update -q >>"$log" 2>&1 || true
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "pagehop: apt-get install failed for: ${missing[*]}" >&2
		exit 1
	fi
fi
