# SPDX-License-Identifier: GPL-2.0-only
# test_scale.sh - "pagehop scale" on this host: 1..2 threads with every
# placement the host allows, each row's CPUs (read back by the threads)
# checked against sysfs's topology (a second path, not hwloc), the per-row
# arithmetic, the knee's consistency, per-thread and single/multi tables,
# and the impossible placements and bad input.  No timing is asserted.
. "$(dirname "$0")/lib.sh"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip_test "SKIP: scale needs 2 CPUs, this host has $ncpu"
topo() { cat /sys/devices/system/cpu/cpu$1/topology/$2; }
# Cores (package:core) and packages of a CPU list, by sysfs.
cores_of() { for c in ${1//,/ }; do echo "$(topo $c physical_package_id):$(topo $c core_id)"; done | sort -u | wc -l; }
pkgs_of() { for c in ${1//,/ }; do topo $c physical_package_id; done | sort -u | wc -l; }
nodes_of() { for c in ${1//,/ }; do basename /sys/devices/system/cpu/cpu$c/node* | tr -d node; done | awk '!s[$0]++' | paste -sd,; }
smt=no
for c in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
	case $(cat "$c") in *,* | *-*) smt=yes ;; esac
done

placements="compact scatter exclusive"
[ $smt = yes ] && placements="$placements shared"
for p in $placements; do
	if ! "$PAGEHOP" scale --threads-list 1,2 --placement $p --size-per-thread 16M --time 0.2 \
		--format json >"$TMP/$p.json" 2>"$TMP/err"; then
		fail "scale --placement $p: $(cat "$TMP/err")"
		continue
	fi
	expect "$p: a row per count" "$(jq -c '[.scale[].threads]' "$TMP/$p.json")" "[1,2]"
	for i in 0 1; do
		row=$(jq -c ".scale[$i]" "$TMP/$p.json")
		cpus=$(echo "$row" | jq -r .cpus)
		t=$(echo "$row" | jq -r .threads)
		expect "$p $t: distinct CPUs read back" "$(echo "${cpus//,/ }" | tr ' ' '\n' | sort -u | wc -l)" "$t"
		expect "$p $t: cores, by sysfs" "$(echo "$row" | jq .cores)" "$(cores_of "$cpus")"
		expect "$p $t: packages, by sysfs" "$(echo "$row" | jq .packages)" "$(pkgs_of "$cpus")"
		expect "$p $t: CPU nodes, by sysfs" "$(echo "$row" | jq -r .cpu_nodes)" "$(nodes_of "$cpus")"
		expect "$p $t: verified and valid" "$(echo "$row" | jq -r '"\(.verified) \(.valid)"')" "true true"
		echo "$row" | jq -e '(.bw_per_thread_GBps * .threads - .bw_GBps | fabs) <= 0.01 * .threads + 0.005' \
			>/dev/null && pass "$p $t: per thread = aggregate / threads" || fail "$p $t: $row"
	done
	# Two threads on distinct cores, except shared (siblings first).
	if [ $p = shared ]; then
		expect "shared: the two threads share a core" "$(jq '.scale[1].shared_cores' "$TMP/$p.json")" 1
	else
		expect "$p: no shared core" "$(jq '.scale[1].shared_cores' "$TMP/$p.json")" 0
	fi
	expect "$p: efficiency of the first count" "$(jq '.scale[0].efficiency_pct' "$TMP/$p.json")" 100
	jq -e '(.scale[1].efficiency_pct - 100 * .scale[1].bw_GBps / 2 / .scale[0].bw_GBps | fabs) < 0.2' \
		"$TMP/$p.json" >/dev/null && pass "$p: efficiency from the rows" || fail "$p: efficiency: $(jq -c .scale "$TMP/$p.json")"
	# The knee: at most one row, the section's count, and 90% of the maximum.
	jq -e '([.scale[] | select(.knee)] | length) as $k |
		if $k == 0 then .scaling.knee_threads == null
		else ([.scale[] | select(.knee) | .threads][0] == .scaling.knee_threads) and
		     ([.scale[] | select(.knee) | .bw_GBps][0] >= 0.9 * ([.scale[].bw_GBps] | max) - 0.01) end' \
		"$TMP/$p.json" >/dev/null && pass "$p: knee consistent ($(jq -c .scaling.knee_threads "$TMP/$p.json"))" ||
		fail "$p: knee: $(jq -c '.scale, .scaling' "$TMP/$p.json")"
done

# --per-thread and --single: the largest count's threads alone and together.
"$PAGEHOP" scale --threads-list 2 --kernel read --size-per-thread 16M --time 0.2 --per-thread --single \
	--format json >"$TMP/s.json" 2>"$TMP/err" || fail "scale --single: $(cat "$TMP/err")"
expect "per-thread rows" "$(jq '.threads | length' "$TMP/s.json")" 2
expect "single_multi rows" "$(jq '.single_multi | length' "$TMP/s.json")" 2
expect "single_multi CPUs are the row's" "$(jq -r '[.single_multi[].cpu] | join(",")' "$TMP/s.json")" \
	"$(jq -r '.scale[0].cpus' "$TMP/s.json")"
jq -e '[.single_multi[] | (.multi_over_single - .multi_GBps / .single_GBps | fabs) < 0.01] | all' "$TMP/s.json" >/dev/null &&
	pass "ratio = multi / single" || fail "ratio: $(jq -c .single_multi "$TMP/s.json")"
expect "multi = the per-thread figures" "$(jq -c '[.single_multi[].multi_GBps]' "$TMP/s.json")" \
	"$(jq -c '[.threads[].bw_GBps]' "$TMP/s.json")"

# Impossible placements.
if [ $smt = no ]; then
	"$PAGEHOP" scale --placement shared --threads-list 1 --size-per-thread 1M >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 4 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		pass "shared without SMT: exit 4: $(cat "$TMP/err")"
	else
		fail "shared without SMT: exit $rc: $(cat "$TMP/err")"
	fi
fi
usage_error "more threads than CPUs" scale --threads-list $((ncpu + 1)) --size-per-thread 1M
cores=$(cores_of "$(seq -s, 0 $((ncpu - 1)))")
usage_error "exclusive: more threads than cores" scale --placement exclusive --threads-list $((cores + 1)) --size-per-thread 1M
usage_error "counts not ascending" scale --threads-list 2,1
usage_error "count 0" scale --threads-list 0
usage_error "empty count" scale --threads-list 1,,2
usage_error "unknown placement" scale --placement spread
usage_error "--size refused" scale --size 1G
usage_error "--threads refused" scale --threads 2
usage_error "--physcpubind refused" scale --physcpubind 0
usage_error "unknown kernel" scale --kernel fma
usage_error "size per thread too small" scale --threads-list 1 --size-per-thread 64
finish
