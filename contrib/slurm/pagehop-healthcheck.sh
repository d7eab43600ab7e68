#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# pagehop-healthcheck.sh - Slurm HealthCheckProgram running "pagehop check".
# On CRITICAL it drains this node with the verdict line as the reason; on
# anything else it leaves the node as it is (WARNING and UNKNOWN are for
# people and for Prometheus, not for taking nodes out of service).
#
# slurm.conf:
#   HealthCheckProgram=/usr/local/share/pagehop/slurm/pagehop-healthcheck.sh
#   HealthCheckInterval=3600
#   HealthCheckNodeState=IDLE      # measure only idle nodes: a busy one is slow
#
# Settings, from the environment or /etc/default/pagehop-healthcheck:
#   PAGEHOP           the command (default: pagehop on PATH)
#   PAGEHOP_BASELINE  a baseline file or a directory of them (default
#                     /etc/pagehop/baselines; without one, alike nodes only)
#   PAGEHOP_BUDGET    seconds (default 20: within Slurm's 60 s limit)
#   PAGEHOP_DRAIN_ON  exit codes that drain, space-separated (default "2")
#   SCONTROL          default scontrol on PATH
# Slurm sets SLURMD_NODENAME; without it, the short host name is used.
set -u

[ -r /etc/default/pagehop-healthcheck ] && . /etc/default/pagehop-healthcheck
PAGEHOP=${PAGEHOP:-pagehop}
PAGEHOP_BASELINE=${PAGEHOP_BASELINE:-/etc/pagehop/baselines}
PAGEHOP_BUDGET=${PAGEHOP_BUDGET:-20}
PAGEHOP_DRAIN_ON=${PAGEHOP_DRAIN_ON:-2}
SCONTROL=${SCONTROL:-scontrol}
node=${SLURMD_NODENAME:-$(hostname -s)}

set -- --budget "$PAGEHOP_BUDGET"
[ -e "$PAGEHOP_BASELINE" ] && set -- "$@" --baseline "$PAGEHOP_BASELINE"
out=$("$PAGEHOP" check "$@" 2>/dev/null)
rc=$?
line=$(printf '%s\n' "$out" | head -n 1)
[ -n "$line" ] || line="PAGEHOP UNKNOWN - pagehop check exited $rc with no verdict"
logger -t pagehop-healthcheck -- "$line" 2>/dev/null || true
for code in $PAGEHOP_DRAIN_ON; do
	if [ "$rc" = "$code" ]; then
		# Slurm keeps a reason on one line; the verdict line is one.
		"$SCONTROL" update nodename="$node" state=drain reason="$line"
		exit $?
	fi
done
exit 0
