#!/bin/sh
# A one-node Slurm cluster for the tests, all of it under one directory: munged, slurmctld and
# slurmd with a slurm.conf written for this host, on free ports, so that it touches nothing of
# the system's own Slurm or munge (no /etc, no /run, no systemd).
#
#   cluster.sh start DIR   start it; prints the line to source (". DIR/env") and exits 0 once
#                          sinfo shows the node idle; exits 77 with the reason where it cannot
#                          run (not root, packages missing, a daemon that will not start)
#   cluster.sh stop DIR    stop the daemons started in DIR (and every job still on the node)
#   cluster.sh status DIR  0 when the cluster of DIR answers, 77 with the reason otherwise
#
# Installs nothing: scripts/install-deps.sh brings slurmctld, slurmd, slurm-client and munge.
# Choices for a test machine: proctrack/linuxproc and task/none (no cgroups needed, so it runs
# in a container), SlurmdParameters=config_overrides with more CPUs than the machine has (the
# test jobs are tiny; several array tasks at once is what the tests need), KillWait=5 (a
# cancelled job is killed after 5 s, not 30).
set -u

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: cluster.sh start|stop|status DIR" >&2; exit 2; }

skip() {
    echo "SKIP slurm cluster: $*"
    mkdir -p "$dir" && printf '%s\n' "$*" > "$dir/skip-reason"
    exit 77
}

stop_pidfile() {
    [ -f "$1" ] || return 0
    pid=$(cat "$1" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.25
        done
        kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$1"
}

case "$cmd" in
status)
    [ -f "$dir/skip-reason" ] && { echo "SKIP slurm cluster: $(cat "$dir/skip-reason")"; exit 77; }
    [ -f "$dir/env" ] || { echo "SKIP slurm cluster: not started (run: cluster.sh start $dir)"; exit 77; }
    # shellcheck disable=SC1091
    . "$dir/env"
    sinfo -h -o %T >/dev/null 2>&1 || { echo "SKIP slurm cluster: slurmctld of $dir does not answer"; exit 77; }
    exit 0
    ;;
stop)
    if [ -f "$dir/env" ]; then
        # shellcheck disable=SC1091
        . "$dir/env"
        scancel --full --quiet --user="$(id -un)" 2>/dev/null
    fi
    stop_pidfile "$dir/slurmd.pid"
    stop_pidfile "$dir/slurmctld.pid"
    stop_pidfile "$dir/munged.pid"
    rm -f "$dir/env"
    exit 0
    ;;
start) ;;
*) echo "usage: cluster.sh start|stop|status DIR" >&2; exit 2 ;;
esac

[ "$(id -u)" = 0 ] || skip "needs root (slurmd runs jobs as their user; got uid $(id -u))"
for p in munged slurmctld slurmd sbatch srun sinfo scontrol; do
    command -v "$p" >/dev/null 2>&1 || \
        PATH="$PATH:/usr/sbin" command -v "$p" >/dev/null 2>&1 || \
        skip "$p is not installed (scripts/install-deps.sh installs slurmctld slurmd slurm-client munge)"
done
PATH="$PATH:/usr/sbin"

"$0" stop "$dir" >/dev/null 2>&1
rm -rf "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/log"
chmod 700 "$dir/munge"
dir=$(cd "$dir" && pwd)

# --- munge: its own key and socket --------------------------------------------------------
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
sock="$dir/munge/munge.socket"
munged --force --key-file="$dir/munge/munge.key" --socket="$sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/seed" >"$dir/log/munged.out" 2>&1 ||
    skip "munged would not start: $(tail -n 2 "$dir/log/munged.out" "$dir/log/munged.log" 2>/dev/null | tr '\n' ' ')"

# --- slurm.conf for this host ----------------------------------------------------------------
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
host=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
mem_mb=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
cpus=8
cat >"$dir/slurm.conf" <<EOF
# one-node test cluster written by tests/slurm/cluster.sh
ClusterName=yeetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock,cred_expire=10
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
cat >"$dir/env" <<EOF
export SLURM_CONF='$dir/slurm.conf'
export PATH="\$PATH:/usr/sbin"
EOF
export SLURM_CONF="$dir/slurm.conf"

slurmctld -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 ||
    skip "slurmctld would not start: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null | tr '\n' ' ')"
slurmd -f "$SLURM_CONF" -N "$host" >"$dir/log/slurmd.out" 2>&1 ||
    skip "slurmd would not start: $(tail -n 3 "$dir/log/slurmd.log" "$dir/log/slurmd.out" 2>/dev/null | tr '\n' ' ')"

i=0
while :; do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    i=$((i + 1))
    if [ $i -gt 120 ]; then
        reason="node state '$state' after 30 s: $(tail -n 3 "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
        "$0" stop "$dir" >/dev/null 2>&1
        skip "$reason"
    fi
    sleep 0.25
done
echo "slurm cluster up in $dir: node $host idle ($cpus CPUs, ports $ctld_port/$slurmd_port); . $dir/env"
exit 0
