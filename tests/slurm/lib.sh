# A one-node Slurm on localhost for rdmarun's Slurm tests (see
# ../shared/slurm-localhost.md): munged, slurmctld and slurmd from Debian's
# packages, with a configuration and state written under $SL. Source it after
# tests/lib.sh; call slurm_start [slurm.conf lines...] and slurm_stop.
SL=$TMP/slurm
HOST=$(hostname -s)
export SLURM_CONF=$SL/slurm.conf

slurm_require() {
    [ "$(id -u)" = 0 ] || { echo "1..0 # SKIP the Slurm tests run daemons as root"; exit 0; }
    for b in munged slurmctld slurmd sbatch scontrol; do
        command -v $b >/dev/null || PATH=$PATH:/usr/sbin
        command -v $b >/dev/null || { echo "1..0 # SKIP $b not installed (slurm-wlm, munge)"; exit 0; }
    done
}

# slurm_start EXTRA_CONF_LINES: fresh state, daemons started, node idle.
slurm_start() {
    rm -rf "$SL"
    mkdir -p "$SL/munge" "$SL/state" "$SL/spool/slurmd-$HOST" "$SL/run" "$SL/log"
    chmod 711 "$SL/munge"
    [ -f /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom bs=1 count=1024 \
        of=/etc/munge/munge.key 2>/dev/null; chmod 400 /etc/munge/munge.key; }
    munged --force --socket="$SL/munge/munge.socket.2" --pid-file="$SL/run/munged.pid" \
        --log-file="$SL/log/munged.log" --seed-file="$SL/munge/seed" || return 1
    node=$(slurmd -C | head -1 | sed 's/ UpTime.*//')
    cat >"$SLURM_CONF" <<CONF
ClusterName=rdmaruntest
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SL/munge/munge.socket.2
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool/slurmd-%n
SlurmctldPidFile=$SL/run/slurmctld.pid
SlurmdPidFile=$SL/run/slurmd-%n.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    for line in "$@"; do echo "$line" >>"$SLURM_CONF"; done
    slurmctld -D -i >"$SL/log/slurmctld.out" 2>&1 &
    echo $! >"$SL/ctld.pid"
    slurmd -D >"$SL/log/slurmd.out" 2>&1 &
    echo $! >"$SL/d.pid"
    slurm_wait_state idle 30
}

# slurm_state: the node's state as sinfo prints it (idle, drain, drng, alloc ...)
slurm_state() { sinfo -h -n "$HOST" -o %t 2>/dev/null | head -1; }
slurm_reason() { sinfo -h -R -n "$HOST" -o %E 2>/dev/null | head -1; }
# slurm_wait_state STATE SECONDS
_slurm_in_state() { [ "$(slurm_state)" = "$1" ]; }
slurm_wait_state() { within "$2" _slurm_in_state "$1"; }
# slurm_wait_job ID SECONDS: until the job has left the queue or is held
slurm_job_state() { squeue -h -j "$1" -o %T 2>/dev/null; }
_slurm_job_over() {
    s=$(slurm_job_state "$1")
    [ -z "$s" ] && return 0
    case $s in PENDING) r=$(squeue -h -j "$1" -o %r); case $r in *Held*|*held*) return 0 ;; esac ;; esac
    return 1
}
slurm_wait_job() { within "$2" _slurm_job_over "$1"; }

slurm_stop() {
    for f in d ctld; do
        [ -f "$SL/$f.pid" ] && kill "$(cat "$SL/$f.pid")" 2>/dev/null
    done
    [ -f "$SL/run/munged.pid" ] && kill "$(cat "$SL/run/munged.pid")" 2>/dev/null
    for f in d ctld; do
        [ -f "$SL/$f.pid" ] && within 30 _all_gone "$(cat "$SL/$f.pid")"
    done
    return 0
}
