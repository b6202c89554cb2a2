#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, for tests/test_slurm.py.
#   tests/slurm/cluster.sh start   install (Debian packages) and start munge + SLURM
#   tests/slurm/cluster.sh stop    stop SLURM (munge keeps running) and take its config away
# Needs root and apt. Everything lives under $LEARNABILITY_SLURM_DIR (default
# /tmp/learnability-slurm); /etc/slurm/slurm.conf is written because the SLURM client
# tools read it from there, and removed by stop (a config that was there before is put
# back): with it left behind and no controller, every `scontrol show config` waits 9 s
# for the controller, and the SLURM executor plugin runs one each time Snakemake starts.
set -euo pipefail
DIR=${LEARNABILITY_SLURM_DIR:-/tmp/learnability-slurm}
CONF=/etc/slurm/slurm.conf
MARK="# written by learnability's tests/slurm/cluster.sh"

start() {
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        # the slurm-wlm metapackage pulls in 86 packages; these four are enough
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            slurmctld slurmd slurm-client munge >/dev/null
    fi
    # munge: its key, its socket directory, and the daemon running as the munge user
    mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
    chmod 0700 /etc/munge && chmod 0400 /etc/munge/munge.key && chmod 0755 /run/munge
    if ! pgrep -x munged >/dev/null; then
        runuser -u munge -- /usr/sbin/munged
    fi
    mkdir -p "$DIR"/state "$DIR"/spool /etc/slurm
    if [ -f "$CONF" ] && ! grep -qx "$MARK" "$CONF" && [ ! -f "$DIR/slurm.conf.before" ]; then
        cp -p "$CONF" "$DIR/slurm.conf.before"  # not ours: stop puts it back
    fi
    # one node, 16 CPUs and 128 GB as configured (config_overrides: slurmd does not check
    # them against the machine), so that the cluster profile's requests fit unchanged;
    # no accounting database (accounting_storage/none), hence squeue for job status; a
    # large MinJobAge keeps finished jobs visible to squeue/scontrol. Partition short has a
    # 25-minute limit, which the plan reads from sinfo (tests/test_slurm.py).
    cat >"$CONF" <<CONF
$MARK
ClusterName=learnability
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=86400
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
TmpFS=/tmp
NodeName=localhost CPUs=16 RealMemory=128000 TmpDisk=100000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
PartitionName=short Nodes=localhost Default=NO MaxTime=00:25:00 State=UP
CONF
    stop_daemons
    slurmctld -c
    slurmd -c
    for _ in $(seq 60); do
        if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
            echo "SLURM is up: $(sinfo -h -o '%P %D %T %c')"
            return 0
        fi
        sleep 1
    done
    echo "SLURM did not come up; see $DIR/slurmctld.log and $DIR/slurmd.log" >&2
    sinfo >&2 || true
    return 1
}

stop_daemons() {
    for d in slurmd slurmctld; do
        pkill -x "$d" 2>/dev/null || true
    done
    for _ in $(seq 20); do
        pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null || return 0
        sleep 0.5
    done
}

case "${1:-start}" in
start) start ;;
stop)
    scancel --user=root 2>/dev/null || true
    stop_daemons
    if [ -f "$DIR/slurm.conf.before" ]; then
        mv "$DIR/slurm.conf.before" "$CONF"
    elif [ -f "$CONF" ] && grep -qx "$MARK" "$CONF"; then
        rm -f "$CONF"
    fi
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
