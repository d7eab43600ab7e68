#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/compare-scale.sh [N...] - how "pagehop compare" scales with the
# number of hosts' documents.  For each N (default 1000 10000; add 100000
# for the largest fleet: bash bench/compare-scale.sh 1000 10000 100000) it
# writes N synthetic documents into a directory of their own
# (tests/data/compare/fleet.py: made from one real document, by default
# tests/data/compare/host01.json, each with its own host name, time stamp
# and figures drawn around the template's with the noise of their kind; the
# hosts spread over MODELS models, every 1000th with a bandwidth figure 20%
# low), then runs "pagehop compare DIR" once, output to /dev/null, and
# prints the wall time, the CPU time (user + system: the host may be shared,
# and then the wall time says more about the neighbours) and the maximum
# resident set size (/usr/bin/time), with the exit status and the hosts
# found straying (from the summary).  The directory operand is what a fleet
# of 100,000 needs: so many paths would pass the argument-list limit.
# A benchmark, not a test: nothing is checked but that compare gave an
# answer (exit 0, 1 or 5).
#
# Environment: TEMPLATE=FILE (a "pagehop baseline --save" file, or a
# "pagehop check --format json" one), MODELS (default 4), SEED (default 1),
# FORMAT (table, csv or json; default table), KEEP=DIR to keep the
# generated documents there, PAGEHOP=BINARY to time another build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pagehop=${PAGEHOP:-$root/build/pagehop}
template=${TEMPLATE:-$root/tests/data/compare/host01.json}
models=${MODELS:-4}
seed=${SEED:-1}
format=${FORMAT:-table}
[ -x "$pagehop" ] || { echo "$pagehop missing: make" >&2; exit 4; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 4; }
command -v python3 >/dev/null || { echo "python3 missing" >&2; exit 4; }
[ -r "$template" ] || { echo "TEMPLATE $template: cannot be read" >&2; exit 2; }
for v in "$models" "$seed"; do
	case $v in '' | *[!0-9]*) echo "MODELS, SEED: expected a non-negative integer, got '$v'" >&2; exit 2 ;; esac
done
case $format in table | csv | json) ;; *) echo "FORMAT: expected table, csv or json" >&2; exit 2 ;; esac
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
for n in "${sizes[@]}"; do
	case $n in '' | *[!0-9]* | 0) echo "N: expected a positive integer, got '$n'" >&2; exit 2 ;; esac
done
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT

printf '%-8s %-8s %-7s %-7s %-7s %-10s %-5s %s\n' \
	documents models gen_s wall_s cpu_s maxrss_MiB exit hosts_straying
for n in "${sizes[@]}"; do
	d=$dir/fleet-$n
	rm -rf "$d"
	t0=$(date +%s.%N)
	python3 "$root/tests/data/compare/fleet.py" "$n" "$d" --template "$template" \
		--models "$models" --seed "$seed" --stray-every 1000
	t1=$(date +%s.%N)
	rc=0
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$pagehop" compare --format "$format" "$d" \
		>"$dir/out" 2>"$dir/err" || rc=$?
	case $rc in 0 | 1 | 5) ;; *) echo "pagehop compare on $n documents: exit $rc: $(tail -n 1 "$dir/err")" >&2; exit 1 ;; esac
	# the summary's first line of it, in any of the three formats
	straying=$(grep -m1 -oE 'hosts_straying"?[:, ]+[0-9]+' "$dir/out" | grep -oE '[0-9]+$' || true)
	read -r wall user sys rss < <(tail -n 1 "$dir/time")	# after "Command exited with ..."
	awk -v n="$n" -v m="$models" -v g="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		-v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v rc="$rc" -v h="${straying:-?}" \
		'BEGIN { printf "%-8s %-8s %-7.1f %-7s %-7.2f %-10.0f %-5s %s\n", n, m, g, w, u + s, r / 1024, rc, h }'
	[ -n "${KEEP:-}" ] || rm -rf "$d"
done
