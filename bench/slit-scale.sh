#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/slit-scale.sh [N...] - how "pagehop slit --input" scales with the
# number of nodes.  For each N (default 64 128 256 512 1024, the most the
# readers take) it writes an N x N latency matrix as CSV and the matching
# SLIT as numactl --hardware prints it, then runs pagehop slit on the matrix
# alone and with --slit, output to /dev/null, and prints the wall time, the
# CPU time (user + system: the host may be shared, and then the wall time
# says more about the neighbours) and the maximum resident set size of each
# run (/usr/bin/time).  A benchmark, not a test: nothing is checked but
# that pagehop gave a verdict (exit 0, 1 or 3).
#
# The inputs have the structure a large machine shows, so that every part
# of the analysis has work to do: 4 nodes per socket (sub-NUMA clusters),
# 4 sockets per board, boards on a ring, each level of that hierarchy
# slower; every cell gets its own noise of +-1.5% (so the matrix is
# asymmetric, as measured ones are), and every fifth CPU node is 3% slower
# to reach its remote memory than the way back (asymmetry beyond the
# noise).  The SLIT follows the hierarchy with integer steps.  Both are
# deterministic from SEED (default 1), with an LCG that every awk computes
# the same way.
#
# Environment: SEED, FORMAT (table, csv or json; default table, what the
# command prints by default), KEEP=DIR to keep the generated inputs there,
# PAGEHOP=BINARY to time another build (default build/pagehop).
# Example: bash bench/slit-scale.sh 64 256
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pagehop=${PAGEHOP:-$root/build/pagehop}
seed=${SEED:-1}
format=${FORMAT:-table}
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 4; }
case $seed in '' | *[!0-9]*) echo "SEED: expected a non-negative integer" >&2; exit 2 ;; esac
case $format in table | csv | json) ;; *) echo "FORMAT: expected table, csv or json" >&2; exit 2 ;; esac
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 128 256 512 1024)
for n in "${sizes[@]}"; do
	case $n in '' | *[!0-9]* | 0 | 1) echo "N: expected an integer of 2 or more, got '$n'" >&2; exit 2 ;; esac
done
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT

# gen N SEED MATRIX SLIT
gen() {
	awk -v n="$1" -v seed="$2" -v mx="$3" -v sl="$4" '
	# MINSTD (Park-Miller): every product stays below 2^53, so that any
	# awk (mawk, gawk, busybox) draws the same numbers.
	function rnd() { state = (state * 48271) % 2147483647; return state / 2147483647 }
	function ring(a, b,    d) { d = a > b ? a - b : b - a; return d < nb - d ? d : nb - d }
	function level(i, j) {
		if (i == j) return 0
		if (int(i / 4) == int(j / 4)) return 1          # same socket
		if (int(i / 16) == int(j / 16)) return 2        # same board
		return 3 + ring(int(i / 16), int(j / 16))       # boards apart on the ring
	}
	BEGIN {
		state = seed % 2147483646 + 1
		nb = int((n + 15) / 16)
		lat[0] = 90; lat[1] = 125; lat[2] = 180
		sd[0] = 10; sd[1] = 12; sd[2] = 20
		print "# pagehop matrix" > mx
		print "# metric: latency_ns" > mx
		print "# source: bench/slit-scale.sh, N=" n ", SEED=" seed > mx
		print "# rows: cpu node, columns: memory node" > mx
		printf "node" > mx
		for (j = 0; j < n; j++) printf ",%d", j > mx
		printf "\n" > mx
		print "node distances:" > sl
		printf "node" > sl
		for (j = 0; j < n; j++) printf " %3d", j > sl
		printf "\n" > sl
		for (i = 0; i < n; i++) {
			printf "%d", i > mx
			printf "%3d:", i > sl
			for (j = 0; j < n; j++) {
				l = level(i, j)
				v = l < 3 ? lat[l] : 240 + 30 * (l - 3)
				if (l && i % 5 == 0) v *= 1.03
				v *= 1 + 0.03 * (rnd() - 0.5)
				printf ",%.1f", v > mx
				d = l < 3 ? sd[l] : 28 + 4 * (l - 3)
				if (d > 254) d = 254
				printf " %3d", d > sl
			}
			printf "\n" > mx
			printf "\n" > sl
		}
	}'
}

# measure ARGS... -> "WALL_S CPU_S MAXRSS_MB", or exits 1 when pagehop gave no verdict
measure() {
	local rc
	set +e
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$pagehop" slit "$@" --format "$format" \
		>/dev/null 2>"$dir/err"
	rc=$?
	set -e
	case $rc in
	0 | 1 | 3) ;;
	*) echo "pagehop slit $*: exit $rc: $(tail -n 2 "$dir/err")" >&2; exit 1 ;;
	esac
	# time(1) puts "Command exited with non-zero status N" first on exits 1 and 3.
	awk 'END { printf "%.2f %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' "$dir/time"
}

echo "# pagehop slit --input FILE --format $format, $("$pagehop" --version 2>/dev/null | head -n 1 || true)" \
	"at $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown), SEED=$seed, $(nproc) CPUs," \
	"load $(cut -d' ' -f1 /proc/loadavg)"
printf '%6s %9s %8s %8s %10s %10s %10s %12s\n' N input_MB wall_s cpu_s maxrss_MB \
	slit_wall_s slit_cpu_s slit_rss_MB
for n in "${sizes[@]}"; do
	gen "$n" "$seed" "$dir/m$n.csv" "$dir/s$n.txt"
	plain=$(measure --input "$dir/m$n.csv")
	with=$(measure --input "$dir/m$n.csv" --slit "$dir/s$n.txt")
	# shellcheck disable=SC2086 # three numbers each
	printf '%6d %9s %8s %8s %10s %10s %10s %12s\n' "$n" \
		"$(awk -v b="$(stat -c %s "$dir/m$n.csv")" 'BEGIN { printf "%.1f", b / 1048576 }')" \
		$plain $with
done
