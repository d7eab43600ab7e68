# SPDX-License-Identifier: GPL-2.0-only
# test_slurm.sh - a real one-node Slurm on this machine (Debian's slurm-wlm
# and munge), its configuration, state and sockets in this test's
# directory, munged, slurmctld and slurmd started here and stopped at the
# end.  In it: an "srun pagehop check --format json" job finishes and its
# document parses; the HealthCheckProgram, installed for a prefix where
# pagehop is not, and run as slurmd runs it (no PATH), leaves the node
# DRAINED with a reason that says pagehop is missing; with the real
# command, DRAINED with the verdict line as its reason against a baseline
# this machine cannot meet (twice its memory), and IDLE against one it
# meets; and slurmd itself, given it as HealthCheckProgram, drains the
# node with pagehop missing.  Skipped, with the reason, where Slurm cannot
# start here.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: slurmd and munged run as root here"
for b in munged slurmctld slurmd srun scontrol sinfo jq; do
	command -v $b >/dev/null || skip_test "$b is not installed (Debian packages slurm-wlm, munge, jq)"
done
root=$PAGEHOP_ROOT
T=$TMP/slurm
mkdir -p "$T/state" "$T/spool" "$T/munge"
chmod 700 "$T/munge"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# ---- munge, with a key of its own ----
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
munged --force --foreground --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" --seed-file="$T/munge/seed" \
	>"$T/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$T/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.sock" ] || skip_test "munged did not start: $(tail -n 1 "$T/munged.out" "$T/munge/munged.log" 2>/dev/null | tail -n 1)"

# ---- slurm.conf: one node, this machine ----
node=$(hostname -s)
cat >"$T/slurm.conf" <<CONF
ClusterName=pagehoptest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -i -f "$T/slurm.conf" >"$T/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$T/slurm.conf" >"$T/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 60); do
	state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.5
done
[ "$state" = idle ] || skip_test "Slurm did not start here (node state '${state:-none}'): $(tail -n 2 "$T/slurmctld.log" "$T/slurmd.log" 2>/dev/null | grep -v '^==' | tail -n 1)"
pass "slurmctld and slurmd up; node $node idle"

# ---- a job: srun pagehop check --format json ----
timeout 120 srun -N 1 -n 1 -t 2 "$PAGEHOP" check --budget 5 --format json >"$TMP/job.json" 2>"$TMP/job.err"
rc=$?
[ "$rc" -le 3 ] && pass "srun pagehop check: exit $rc" || fail "srun: exit $rc: $(tail -n 2 "$TMP/job.err")"
jq -e '.verdict.line | test("^PAGEHOP (OK|WARNING|CRITICAL|UNKNOWN) - ")' "$TMP/job.json" >/dev/null &&
	pass "the job's document parses: $(jq -r .verdict.line "$TMP/job.json")" || fail "job output: $(head -c 300 "$TMP/job.json")"
expect "the job's exit code is its verdict's" "$(jq -r .verdict.exit_code "$TMP/job.json")" "$rc"

# ---- the HealthCheckProgram ----
"$PAGEHOP" baseline --time 0.3 --save "$TMP/b.json" >/dev/null 2>"$TMP/err" || [ -s "$TMP/b.json" ] ||
	fail "baseline: $(cat "$TMP/err")"
# Fitting: this machine's own, with its timing figures' tolerance opened
# (the host is shared; this test is about what Slurm does with the verdict).
jq '(.figures[] | select(.kind == "latency" or .kind == "bandwidth") | .lower, .upper) |= null' \
	"$TMP/b.json" >"$TMP/fitting.json"
# Unmeetable: the fitting baseline with twice this machine's memory. Only
# the memory is out, so the verdict's line names it (a noisy 2 s bandwidth
# figure further out would otherwise take the line).
jq '(.figures[] | select(.figure == "mem_total") | .value, .ci_lo, .ci_hi) |= . * 2' "$TMP/fitting.json" >"$TMP/unmeetable.json"
# The HealthCheckProgram as installed for a prefix of this test's: its
# default command, $P/bin/pagehop, is not there.
P=$TMP/prefix
make -s -C "$root" install-contrib-files PREFIX="$P" >"$TMP/mk" 2>&1 || fail "make install-contrib-files: $(tail -n 3 "$TMP/mk")"
hcprog=$P/share/pagehop/slurm/pagehop-healthcheck.sh
# hc [VAR=VALUE...]: as slurmd runs it, with no PATH of its own.
hc() {
	env -i SLURMD_NODENAME="$node" SLURM_CONF="$SLURM_CONF" PAGEHOP_BUDGET=5 "$@" sh "$hcprog" >>"$TMP/hc.out" 2>&1
}
reason() { scontrol show node "$node" | sed -n 's/^ *Reason=\(.*\) \[root@.*$/\1/p'; }
resume() {
	scontrol update nodename="$node" state=resume
	for _ in $(seq 20); do [ "$(sinfo -h -n "$node" -o %T)" = idle ] && break; sleep 0.5; done
}
drained() { scontrol show node "$node" | grep -q 'State=[A-Z+]*DRAIN'; }

hc PAGEHOP_BASELINE="$TMP/unmeetable.json"
drained && pass "pagehop missing: node drained" || fail "pagehop missing: $(scontrol show node "$node" | grep -o 'State=[^ ]*'): $(cat "$TMP/hc.out")"
r=$(reason)
expect "the reason says pagehop is missing" "$r" "PAGEHOP FAILED - $P/bin/pagehop is missing or not executable"
resume

hc PAGEHOP="$PAGEHOP" PAGEHOP_BASELINE="$TMP/unmeetable.json"
drained && pass "unmeetable baseline: node drained" ||
	fail "unmeetable: $(scontrol show node "$node" | grep -o 'State=[^ ]*'): $(tail -n 1 "$TMP/hc.out")"
r=$(reason)
case $r in
"PAGEHOP CRITICAL - node "*" mem_total "*"% below baseline"*) pass "the reason is the verdict: $r" ;;
*) fail "reason: '$r' ($(tail -n 1 "$TMP/hc.out"))" ;;
esac
resume
hc PAGEHOP="$PAGEHOP" PAGEHOP_BASELINE="$TMP/fitting.json"
expect "fitting baseline: node idle ($(tail -n 1 "$TMP/hc.out"))" "$(sinfo -h -n "$node" -o %T)" idle

# ---- slurmd runs it: HealthCheckProgram in slurm.conf, pagehop missing ----
# slurmd runs it with SLURMD_NODENAME alone in its environment; the wrapper
# adds only SLURM_CONF, since this Slurm's configuration is not in /etc/slurm
# (scontrol would not find it).
printf '#!/bin/sh\nSLURM_CONF=%s exec sh %s\n' "$SLURM_CONF" "$hcprog" >"$T/hc-wrapper.sh"
chmod 755 "$T/hc-wrapper.sh"
cat >>"$T/slurm.conf" <<CONF
HealthCheckProgram=$T/hc-wrapper.sh
HealthCheckInterval=5
HealthCheckNodeState=ANY
CONF
drained && resume
scontrol reconfigure
for _ in $(seq 60); do drained && break; sleep 0.5; done
drained && pass "slurmd's HealthCheckProgram, pagehop missing: node drained" ||
	fail "slurmd's HealthCheckProgram: node $(sinfo -h -n "$node" -o %T): $(grep -A4 -i health "$T/slurmd.log" | tail -n 5)"
r=$(reason)
expect "slurmd's HealthCheckProgram: the reason" "$r" "PAGEHOP FAILED - $P/bin/pagehop is missing or not executable"
finish
