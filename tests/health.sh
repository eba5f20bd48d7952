#!/bin/sh
# rdmarun check (the node health check, without Slurm): every check against
# recorded sysfs trees, time limits against a read that hangs, the
# configuration's errors, and root mode's refusal of configurations that
# others could have written.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
SITE=$TMP/site
mkdir -p "$SITE"
conf() {  # conf NAME LINES...: a site configuration in $SITE/NAME.ini
    f=$SITE/$1.ini
    shift
    printf '[check]\n' >"$f"
    for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}
hc() { run "$RDMARUN" check --config "$@"; }

conf good devices=rxe0:1 min-rate=1 timeout=$(scaled 20)
hc "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe"
check "a healthy node: status 0 and one summary line" 0 "node" "is healthy: 2 checks passed"
conf good2 devices=rxe0:1 timeout=$(scaled 20)
hc "$SITE/good2.ini" --sysfs "$DATA/sysfs/rxe"
check "only the checks asked for run" 0 "is healthy: 1 check passed"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; ok $? "nothing but the summary line when healthy"

conf absent devices=mlx5_0,rxe0
hc "$SITE/absent.ini" --sysfs "$DATA/sysfs/rxe"
check "a required device that is absent" 69 \
    "rdmarun: check devices FAILED: RDMARUN-DEVICE-ABSENT: mlx5_0 is absent (hint:" \
    "is UNHEALTHY: 1 of 1 check failed"
hc "$SITE/absent.ini" --sysfs "$DATA/sysfs/rxe" --json
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert [(c["name"], c["passed"]) for c in d["checks"]] == [("devices", False)], d["checks"]' <<<"$out"
ok $? "and its JSON lists the 1 check the text counts (issue 51: it listed 2, the facts read too)"
hc "$SITE/absent.ini" --sysfs "$DATA/sysfs/none"
check "a node without RDMA devices" 69 "mlx5_0 is absent" "rxe0 is absent"

conf any timeout=$(scaled 20)
hc "$SITE/any.ini" --sysfs "$DATA/sysfs/ib-down"
check "a DOWN port, with its physical state" 69 "mlx5_0 port 1 is DOWN, physical state Disabled"
hc "$SITE/any.ini" --sysfs "$DATA/sysfs/none"
check "no devices at all, with nothing named" 69 "no RDMA device on this node"
conf anystate port-state=any
hc "$SITE/anystate.ini" --sysfs "$DATA/sysfs/ib-down"
check "port-state = any accepts a DOWN port" 0 "is healthy"
# A node of 41 HCAs (82 ports): past the 64 ports a check looks at, said
# (issue 47: no silent cap), the node judged on those it looked at.
cp -r "$DATA/sysfs/ib-mlx5" "$TMP/sys-82"
for i in $(seq 2 40); do cp -r "$TMP/sys-82/class/infiniband/mlx5_0" "$TMP/sys-82/class/infiniband/mlx5_$i"; done
hc "$SITE/anystate.ini" --sysfs "$TMP/sys-82"
check "82 ports: the bound of 64 is said, with the way to name the ports" 0 \
    "check devices: more than 64 ports to check: the checks look at the first 64" "devices = DEV:PORT"

conf rate devices=mlx5_0 min-rate=200
hc "$SITE/rate.ini" --sysfs "$DATA/sysfs/ib-mlx5"
check "a port below min-rate" 69 "runs at 100 Gb/sec (4X EDR), below the 200 Gb/s required"

conf mods modules=rdma_rxe,ib_uverbs
cp -r "$DATA/sysfs/rxe" "$TMP/sys-mods"
mkdir -p "$TMP/sys-mods/module/ib_uverbs"
hc "$SITE/mods.ini" --sysfs "$TMP/sys-mods"
check "a module that is not loaded, with the fix" 69 \
    "kernel module rdma_rxe is not loaded (hint: modprobe rdma_rxe)"
check_without "a loaded module passes" 69 "ib_uverbs is not" "kernel module rdma_rxe is not loaded"

# Error counters: a baseline, then a counter that grew.
cp -r "$DATA/sysfs/ib-mlx5" "$TMP/sys-cnt"
conf cnt devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/deep/er/counters"
hc "$SITE/cnt.ini" --sysfs "$TMP/sys-cnt"
check "the first counter check records a baseline" 0 "is healthy"
[ -s "$TMP/state/deep/er/counters" ]; ok $? "the baseline file is written, its folders made"
hc "$SITE/cnt.ini" --sysfs "$TMP/sys-cnt"
check "unchanged counters pass" 0 "is healthy"
c=$TMP/sys-cnt/class/infiniband/mlx5_0/ports/2/counters/symbol_error
echo $(($(cat "$c") + 12)) >"$c"
hc "$SITE/cnt.ini" --sysfs "$TMP/sys-cnt"
check "a growing error counter" 69 "mlx5_0 port 2 symbol_error grew by 12 since the last check"
# A 16-bit PMA counter at its top (65535) counts no more: its growth is
# unknown, said without failing the node (what it counted is history); the
# first check makes a fresh baseline, so nothing grew.
echo 65535 >"$c"
conf sat devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/sat"
hc "$SITE/sat.ini" --sysfs "$TMP/sys-cnt"
check "a saturated counter is said, not failed" 0 "is healthy" \
    "rdmarun: check counters: mlx5_0 port 2 symbol_error is saturated (counts no more until reset"
echo 65534 >"$c"
hc "$SITE/sat.ini" --sysfs "$TMP/sys-cnt"
check_without "one below its top is a count" 0 "saturated" "is healthy"
# An ACTIVE port whose rate file the kernel could not have written is
# unknown to min-rate, never taken as fast enough.
cp -r "$DATA/sysfs/ib-mlx5" "$TMP/sys-rate"
printf '999999 Gb/sec (4X EDR)\n' >"$TMP/sys-rate/class/infiniband/mlx5_0/ports/1/rate"
conf rate devices=mlx5_0:1 min-rate=100
hc "$SITE/rate.ini" --sysfs "$TMP/sys-rate"
check "an impossible rate is unknown to min-rate" 0 "rdmarun: check rate: mlx5_0 port 1's rate unknown"
# Every counter of the port, by family, against [check] counter-limits: a
# driver's hw_counters too, and a counter rdmarun does not know.
hw=$TMP/sys-cnt/class/infiniband/mlx5_0/ports/2/hw_counters
mkdir -p "$hw"
echo 5 >"$hw/out_of_sequence"
echo 1 >"$hw/np_cnp_sent"
echo 7 >"$hw/vendor_x"
conf lim devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/lim" \
    "counter-limits = loss:100, congestion:10, other:0"
hc "$SITE/lim.ini" --sysfs "$TMP/sys-cnt"
check "counter-limits: the first check records hw_counters too" 0 "is healthy"
grep -q "mlx5_0 2 out_of_sequence 5" "$TMP/state/lim"; ok $? "the baseline holds hw_counters"
echo 85 >"$hw/out_of_sequence"
echo 30 >"$hw/np_cnp_sent"
hc "$SITE/lim.ini" --sysfs "$TMP/sys-cnt"
check "loss within its limit passes, congestion past its limit fails" 69 \
    "mlx5_0 port 2 np_cnp_sent grew by 29 since the last check (congestion counters: 29, the limit is 10"
check_without "80 packets out of sequence are within loss:100" 69 "out_of_sequence grew" "np_cnp_sent grew by 29"
echo 9 >"$hw/vendor_x"
hc "$SITE/lim.ini" --sysfs "$TMP/sys-cnt"
check "an unknown counter is held to other's limit, by its name" 69 "vendor_x grew by 2"
conf badlim devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/bad" \
    "counter-limits = wobble:3"
# A configuration mistake is not a sick node (rdmarun-slurm(7)): refused when
# the configuration loads (78, its file:line), never UNHEALTHY, never drained.
printf '#!/bin/sh\necho "$@" >>"%s/scontrol.log"\n' "$TMP" >"$TMP/scontrol-rec"
chmod +x "$TMP/scontrol-rec"
for v in wobble:3 link:x link loss:-1 "link:1,eror:0"; do
    conf badlim devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/bad" \
        "counter-limits = $v"
    run "$RDMARUN" check --config "$SITE/badlim.ini" --sysfs "$TMP/sys-cnt" --drain \
        --scontrol "$TMP/scontrol-rec" --node n1
    check "counter-limits = $v: a configuration error with its place, 78" 78 \
        "badlim.ini:6: [check] counter-limits: '"
done
conf badlim2 devices=mlx5_0:2 port-state=any counters=yes "baseline=$TMP/state/bad" \
    "epilog-counter-limits = lnk:0"
run "$RDMARUN" check --config "$SITE/badlim2.ini" --sysfs "$TMP/sys-cnt" --drain \
    --scontrol "$TMP/scontrol-rec" --node n1
check "epilog-counter-limits with a typo: 78" 78 "badlim2.ini:6: [check] epilog-counter-limits: 'lnk:0'"
conf noman devices=mlx5_0:1 "manifest=$TMP/no/such/manifest.json"
run "$RDMARUN" check --config "$SITE/noman.ini" --sysfs "$DATA/sysfs/ib-mlx5" --drain \
    --scontrol "$TMP/scontrol-rec" --node n1
check "a configured manifest that is not there: 78, with its place, not UNHEALTHY" 78 \
    "noman.ini:3: [check] manifest $TMP/no/such/manifest.json: No such file or directory"
run "$RDMARUN" check --config "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe" --drain \
    --scontrol "$TMP/scontrol-rec" --node n1 --manifest "$TMP/no/such.json"
check "--manifest a file that is not there: 66" 66 "--manifest $TMP/no/such.json: No such file"
[ ! -e "$TMP/scontrol.log" ]; ok $? "and no node was drained (or resumed) for any of these"

# A job's epilog (--epilog) judges what grew during the job against the
# counters its prolog kept (BASELINE.job-ID), with epilog-counter-limits; a
# HealthCheckProgram run between them does not hide the job's growth.
cp -r "$DATA/sysfs/ib-mlx5" "$TMP/sys-job"
jc=$TMP/sys-job/class/infiniband/mlx5_0/ports/2/counters/symbol_error
conf job devices=mlx5_0:2 port-state=any "baseline=$TMP/state/job/counters" \
    counters=yes "epilog-counter-limits = link:5"
SLURM_JOB_ID=4242 hc "$SITE/job.ini" --sysfs "$TMP/sys-job"
check "the prolog passes and keeps its job's counters" 0 "is healthy"
[ -s "$TMP/state/job/counters.job-4242" ]; ok $? "the prolog's snapshot is kept for job 4242"
echo $(($(cat "$jc") + 4)) >"$jc"
env -u SLURM_JOB_ID "$RDMARUN" check --config "$SITE/job.ini" --sysfs "$TMP/sys-job" >/dev/null  # HealthCheckProgram
echo $(($(cat "$jc") + 3)) >"$jc"
SLURM_JOB_ID=4242 hc "$SITE/job.ini" --sysfs "$TMP/sys-job" --epilog
check "the epilog sees 7 symbol errors during the job, past link:5" 69 \
    "rdmarun: check counters FAILED: RDMARUN-COUNTERS-LINK: mlx5_0 port 2 symbol_error grew by 7 during job 4242 (link counters: 7, the limit is 5"
[ ! -e "$TMP/state/job/counters.job-4242" ]; ok $? "the epilog removes its job's snapshot"
SLURM_JOB_ID=4243 hc "$SITE/job.ini" --sysfs "$TMP/sys-job"
echo $(($(cat "$jc") + 5)) >"$jc"
SLURM_JOB_ID=4243 hc "$SITE/job.ini" --sysfs "$TMP/sys-job" --epilog
check "5 during the next job are within epilog-counter-limits" 0 "is healthy"
SLURM_JOB_ID=4244 hc "$SITE/job.ini" --sysfs "$TMP/sys-job" --epilog
check "an epilog without its prolog's counters says so and passes" 0 \
    "rdmarun: check counters: no counters from job 4244's prolog in $TMP/state/job/counters.job-4244" "is healthy"
conf jobnc devices=mlx5_0:2 port-state=any "baseline=$TMP/state/job/counters"
SLURM_JOB_ID=4245 hc "$SITE/job.ini" --sysfs "$TMP/sys-job"
echo $(($(cat "$jc") + 1)) >"$jc"
SLURM_JOB_ID=4245 hc "$SITE/jobnc.ini" --sysfs "$TMP/sys-job" --epilog
check "--epilog compares counters where the file does not ask (default link:0)" 69 \
    "symbol_error grew by 1 during job 4245 (link counters: 1, the limit is 0"
ln -s "$TMP/elsewhere" "$TMP/state/job/counters.job-4246"
SLURM_JOB_ID=4246 hc "$SITE/job.ini" --sysfs "$TMP/sys-job"
check "a link planted at the job's snapshot is replaced, never followed" 0 "is healthy"
[ ! -e "$TMP/elsewhere" ] && [ ! -L "$TMP/state/job/counters.job-4246" ]
ok $? "nothing was written through the link"
SLURM_JOB_ID='../x' hc "$SITE/job.ini" --sysfs "$TMP/sys-job" --epilog
check "--epilog with a SLURM_JOB_ID that is not a job id" 64 "check --epilog: SLURM_JOB_ID is not a job id (not digits)"
env -u SLURM_JOB_ID "$RDMARUN" check --config "$SITE/job.ini" --sysfs "$TMP/sys-job" --epilog >"$TMP/o" 2>&1
[ $? = 64 ] && grep -q "SLURM_JOB_ID is not a job id (not set)" "$TMP/o"; ok $? "--epilog outside a job: 64, said"

# Limits are this node's, also when the devices come from a recorded tree.
conf mem devices=rxe0 memlock=unlimited
run sh -c 'ulimit -S -l 64 && exec "$0" check --config "$1" --sysfs "$2"' "$RDMARUN" "$SITE/mem.ini" "$DATA/sysfs/rxe"
check "a memlock limit below the site's" 69 "the memlock limit is 64 KiB, the site requires unlimited"
conf mem2 devices=rxe0 memlock=32K
run sh -c 'ulimit -S -l 64 && exec "$0" check --config "$1" --sysfs "$2"' "$RDMARUN" "$SITE/mem2.ini" "$DATA/sysfs/rxe"
check "a memlock limit above the site's minimum" 0 "is healthy"

# A FIFO where sysfs has a file (a planted one, a broken recording) is
# refused at once, never waited on: the port's state is unknown.
cp -r "$DATA/sysfs/rxe" "$TMP/sys-fifo"
rm "$TMP/sys-fifo/class/infiniband/rxe0/ports/1/state"
mkfifo "$TMP/sys-fifo/class/infiniband/rxe0/ports/1/state"
conf fifo devices=rxe0 check-timeout=60 timeout=120
t0=$(date +%s)
hc "$SITE/fifo.ini" --sysfs "$TMP/sys-fifo"
t=$(($(date +%s) - t0))
check "a FIFO as a sysfs state file: not read, the port's state is unknown" 69 "rxe0 port 1 is UNKNOWN"
[ "$rc" = 69 ] && [ "$t" -lt 60 ]; ok $? "and nothing waited for a writer (${t} s, the limit was 60)"

# A check that never finishes (a driver stuck in the kernel; here strace
# stops the check's process as it opens the port's state file) is cut at
# the time limit.
state=$TMP/sys-hang/class/infiniband/rxe0/ports/1/state
cp -r "$DATA/sysfs/rxe" "$TMP/sys-hang"
stuck() { stop_at_open "$state" "$@"; }
if can_stop_at_open; then
    conf hang devices=rxe0 check-timeout=2 timeout=$(scaled 30)
    t0=$(date +%s)
    run stuck "$RDMARUN" check --config "$SITE/hang.ini" --sysfs "$TMP/sys-hang"
    t=$(($(date +%s) - t0))
    check "a check that hangs is stopped at its limit" 69 \
        "check facts FAILED: RDMARUN-TIMEOUT: did not finish within 2 s (the check's time limit); stopped"
    [ "$rc" = 69 ] && [ "$t" -le "$(scaled 6)" ]; ok $? "and the run ends soon after (${t} s)"
    conf hang2 devices=rxe0 check-timeout=$(scaled 20) timeout=3
    t0=$(date +%s)
    run stuck "$RDMARUN" check --config "$SITE/hang2.ini" --sysfs "$TMP/sys-hang"
    t=$(($(date +%s) - t0))
    check "the whole run's limit" 69 "did not finish within 3 s (the whole run's time limit)"
    [ "$rc" = 69 ] && [ "$t" -le "$(scaled 7)" ]; ok $? "ended after ${t} s"
    # Each check hung in turn, after the ones before it ended (issue 47):
    # the one that hangs is named, and the ones before keep their results.
    # What each opens alone: the manifest, the counters' baseline folder,
    # the flaps' state folder; made by a first run that does not hang.
    HT=$TMP/hang-each
    mkdir -p "$HT"
    "$RDMARUN" probe --json --sysfs "$DATA/sysfs/ib-mlx5" >"$HT/manifest.json"
    conf each devices=mlx5_0:1 port-state=any counters=yes "baseline=$HT/cstate/counters" \
        flaps=yes "state=$HT/fstate/flaps" "manifest=$HT/manifest.json" check-timeout=2 \
        timeout=$(scaled 60)
    run "$RDMARUN" check --config "$SITE/each.ini" --sysfs "$DATA/sysfs/ib-mlx5" --json
    check "the checks, none hung: healthy" 0 '"healthy": true'
    for hung in manifest:"$HT/manifest.json" counters:"$HT/cstate" flaps:"$HT/fstate"; do
        name=${hung%%:*} file=${hung#*:}
        run stop_at_open "$file" "$RDMARUN" check --config "$SITE/each.ini" --sysfs "$DATA/sysfs/ib-mlx5" --json
        python3 -c '
import json, sys
name = sys.argv[1]
d = json.loads(sys.stdin.read())
names = [c["name"] for c in d["checks"]]
hung = [c for c in d["checks"] if c["name"] == name]
before = names[:names.index(name)]
assert hung and not hung[0]["passed"], d
assert any("did not finish within 2 s" in p["text"] and p["code"] == "RDMARUN-TIMEOUT" for p in hung[0]["problems"]), hung
assert "devices" in before and "facts" not in names, names   # facts read: a step
assert all(c["passed"] for c in d["checks"] if c["name"] in before), d
' "$name" <<<"$out"
        ok $? "the $name check hung (at its file) after the others before it: it is named, they passed"
    done
else
    for d in "a check that hangs is stopped at its limit" "and the run ends soon after" \
        "the whole run's limit" "ended after" "the checks, none hung" "the manifest check hung" \
        "the counters check hung" "the flaps check hung"; do
        skip "$d" "strace cannot hold a system call here (strace -e inject needs ptrace)"
    done
fi

# The configuration's own errors.
conf badkey devices=rxe0 colour=blue
hc "$SITE/badkey.ini"
check "an unknown [check] key: file:line" 78 "badkey.ini:3" "colour"
conf badval min-rate=fast
hc "$SITE/badval.ini"
check "a bad value: file:line" 78 "badval.ini:2"
conf zero devices=rxe0 timeout=0
hc "$SITE/zero.ini" --sysfs "$DATA/sysfs/rxe"
check "timeout = 0 is a configuration error, not an unhealthy node" 78 "zero.ini:3" "at least 1"
conf badport devices=rxe0:x
hc "$SITE/badport.ini" --sysfs "$DATA/sysfs/rxe"
check "devices = rxe0:x: a port that is no number is a configuration error" 78 "badport.ini:2" \
    "'rxe0:x' is not a device or DEVICE:PORT"
for n in "n[1-4]" "n1,n2" ALL "" "-x"; do
    hc "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe" --drain --node "$n" --scontrol /nonexistent/scontrol
    why="--node takes one node's name"
    [ -n "$n" ] || why="--node needs a value, not an empty one"
    check "--drain --node '$n' is refused before any scontrol call (a hostlist drains many)" 64 "$why"
done
hc "$SITE/nothere.ini"
check "a configuration that is missing" 66 "cannot read the site check configuration" "nothere.ini"
run "$RDMARUN" check --drain --config "$SITE/absent.ini" --sysfs "$DATA/sysfs/rxe" \
    --scontrol /nonexistent/scontrol
check "--drain when scontrol cannot run: the failure says so" 69 \
    "cannot run /nonexistent/scontrol: No such file or directory" "UNHEALTHY"
# Slurm's own scontrol where no slurmctld answers: its lines are said as one
# line, "; " between them, never a literal \n (issue 51).
if command -v scontrol >/dev/null && ! timeout 20 scontrol ping >/dev/null 2>&1; then
    run "$RDMARUN" check --drain --config "$SITE/absent.ini" --sysfs "$DATA/sysfs/rxe" \
        --scontrol "$(command -v scontrol)" --node rdmarun-test-node
    line=$(printf '%s\n' "$err" | grep "scontrol .*failed")
    [ "$rc" = 69 ] && [ -n "$line" ] && ! printf '%s' "$err" | grep -qF '\n' &&
        ! printf '%s' "$err" | grep -qF '\r'
    ok $? "--drain, scontrol without its controller: one line, no literal \\n (${line:0:160})"
else
    skip "--drain, scontrol without its controller" "no scontrol, or a slurmctld answers here"
fi

# Root mode: only configurations root alone can change.
if [ "$(id -u)" = 0 ]; then
    chmod o+w "$SITE/good.ini"
    hc "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe"
    check "as root, a world-writable configuration is refused" 78 \
        "is writable by others than root" "chmod go-w"
    chmod o-w "$SITE/good.ini"
    chown 65534 "$SITE/good.ini"
    hc "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe"
    check "as root, a configuration not owned by root is refused" 78 "is not owned by root"
    chown 0 "$SITE/good.ini"
    chmod g+w "$SITE"
    hc "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe"
    check "as root, a configuration in a folder others can write is refused" 78 "$SITE is writable"
    chmod g-w "$SITE"
    printf '[profile]\ninherit = parent\n[check]\ndevices = rxe0\n' >"$SITE/child.ini"
    printf '[check]\nmin-rate = 1\n' >"$SITE/parent.ini"
    chown 65534 "$SITE/parent.ini"
    hc "$SITE/child.ini" --sysfs "$DATA/sysfs/rxe"
    check "as root, a parent profile not owned by root is refused" 78 "parent.ini is not owned by root"
else
    skip "root mode refuses world-writable configurations" "not root"
fi

# Fabric health: lossless RoCE, interrupts, CPU power state and GPUDirect, on
# trees written from the kernel's layouts (tests/data/sysfs/make-trees.py).
conf fabric lossless=yes irq-affinity=yes governor=performance max-idle-latency=20 timeout=$(scaled 20)
hc "$SITE/fabric.ini" --sysfs "$DATA/sysfs/roce-lossless"
check "a lossless RoCE node: PFC and ECN on priority 3, where UCX's class 106 lands" 0 \
    "is healthy: 5 checks passed"
hc "$SITE/fabric.ini" --sysfs "$DATA/sysfs/roce-lossy"
check "PFC and ECN off on UCX's priority, interrupts off-node, powersave, C6" 69 \
    "check lossless FAILED: RDMARUN-LOSSLESS: mlx5_0: PFC is off on priority 3, which UCX's RoCE traffic takes (traffic class 106 (UCX's default)" \
    "ECN (DCQCN) is off on priority 3 as reaction and notification point" \
    "check irq-affinity FAILED: RDMARUN-IRQ: all 2 interrupts of mlx5_0 go to PUs 8-9, none on its own NUMA node (PUs 0-7)" \
    "check governor FAILED: RDMARUN-GOVERNOR: PUs 0-15 run the powersave cpufreq governor, not performance" \
    "check idle-states FAILED: RDMARUN-IDLE: idle state C6 (exit latency 133 us, more than the 20 us allowed) is enabled on PUs 0-15" \
    "4 of 5 checks failed"
printf '[check]\nlossless = yes\n[nccl]\nIB_HCA = mlx5_0\n' >"$SITE/nccl.ini"
hc "$SITE/nccl.ini" --sysfs "$DATA/sysfs/roce-lossless"
check "NCCL's default traffic class 0 lands on priority 0, where PFC is off" 69 \
    "PFC is off on priority 0, which NCCL's RoCE traffic takes (traffic class 0 (NCCL's default) and service level 0 (NCCL's default) map to priority 0 by the DSCP-to-priority map"
printf '[check]\nlossless = yes\n[ucx]\nIB_TRAFFIC_CLASS = 192\n' >"$SITE/tc.ini"
hc "$SITE/tc.ini" --sysfs "$DATA/sysfs/roce-lossless"
check "a site traffic class: DSCP 48 maps to priority 6 (dcb app)" 69 \
    "PFC is off on priority 6, which UCX's RoCE traffic takes (traffic class 192 (UCX_IB_TRAFFIC_CLASS)"
printf '[check]\nlossless = yes\n[ucx]\nIB_TRAFFIC_CLASS = 300\n' >"$SITE/badtc.ini"
hc "$SITE/badtc.ini" --sysfs "$DATA/sysfs/roce-lossless"
check "a traffic class out of range is a failure that says so" 69 \
    "[ucx] IB_TRAFFIC_CLASS = 300, IB_SL = auto: not a traffic class 0-255 and a service level 0-7"
hc "$SITE/fabric.ini" --sysfs "$DATA/sysfs/rxe"
check "what cannot be read is said, once, and fails nothing" 0 \
    "rdmarun: check governor: the cpufreq governor (no cpufreq in sysfs) unknown" \
    "rdmarun: check idle-states: the CPU idle states (no cpuidle in sysfs) unknown" "is healthy"

cp "$SRC/etc/check.ini" "$SITE/shipped.ini"
hc "$SITE/shipped.ini" --sysfs "$DATA/sysfs/rxe"
check "the check.ini make install ships is a working configuration" 0 "is healthy: 1 check passed"
hc "$SITE/shipped.ini" --sysfs "$DATA/sysfs/ib-down"
check "and it fails a DOWN port" 69 "mlx5_0 port 1 is DOWN"

# Fault codes (issue 38): each fault on a recorded node gets its own code,
# in the text, the JSON (--json) and the drain reason (tests/slurm). The
# expectations are written by hand from what each tree holds.
codes_of() {  # [BASE>]SYSFS KEY=VALUE...: the codes check --json gives, sorted, one line
    _t=$1
    shift
    rm -f "$TMP/codes-baseline"
    conf codes "$@" "timeout=$(scaled 20)" "baseline=$TMP/codes-baseline"
    case $_t in   # BASE>TREE: the baseline from BASE, then the check on TREE
        *'>'*) "$RDMARUN" check --config "$SITE/codes.ini" --sysfs "${_t%%>*}" >/dev/null 2>&1
               _t=$DATA/sysfs/${_t#*>} ;;
    esac
    run "$RDMARUN" check --json --config "$SITE/codes.ini" --sysfs "$_t"
    printf '%s' "$out" | python3 -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["codes"])))' 2>/dev/null
}
caught=0 cases=0
while read -r tree want args; do
    # shellcheck disable=SC2086
    got=$(codes_of "$DATA/sysfs/$tree" $args)
    want=$(printf '%s' "$want" | tr '+' ' ')
    cases=$((cases + 1))
    [ "$rc" = 69 ] && [ "$got" = "$want" ] && caught=$((caught + 1))
    ok $? "$tree, $args: $want (got: ${got:-none}, status $rc)"
done <<CASES
$(grep -v '^#' "$DATA/health/fault-matrix.txt")
CASES
echo "# fault codes: caught $caught/$cases, each with its own code"
conf codes devices=rxe0:1 timeout=$(scaled 20)
run "$RDMARUN" check --json --config "$SITE/codes.ini" --sysfs "$DATA/sysfs/rxe"
printf '%s' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d["healthy"] and d["codes"] == [] and all(c["passed"] for c in d["checks"]) else 1)'
ok $? "a healthy node's JSON: healthy, no code, every check passed (status $rc)"
# Every code the check gives is in rdmarun-slurm(7)'s table, and only those.
src_codes=$(grep -o '"RDMARUN-[A-Z-]*"' "$SRC/src/health/fault_codes.c" "$SRC/src/health/fault_codes.h" | cut -d'"' -f2 | sort -u)
man_codes=$(sed -n '/^\.SS Fault codes/,/^\.S[SH] [^F]/p' "$SRC/man/rdmarun-slurm.7.in" | grep -o '^RDMARUN-[A-Z-]*' | sort -u)
[ -n "$src_codes" ] && [ "$src_codes" = "$man_codes" ]
ok $? "rdmarun-slurm(7) lists every fault code, and no other ($(echo $src_codes | wc -w) codes)" ||
    diff <(echo "$src_codes") <(echo "$man_codes") | sed 's/^/#   /'
rows=$(sed -n '/^\.SS Fault codes/,/^\.TE/p' "$SRC/man/rdmarun-slurm.7.in" | grep -c '^RDMARUN-')
todo=$(sed -n '/^\.SS Fault codes/,/^\.TE/p' "$SRC/man/rdmarun-slurm.7.in" | grep -c '\. What to do: ')
[ "$rows" -gt 0 ] && [ "$rows" = "$todo" ]; ok $? "every code's row says what to do ($todo of $rows)"

# --prometheus: node_exporter's textfile, read back by the Prometheus
# project's own parser (python3-prometheus-client), replaced whole, 0644.
conf prom devices=mlx5_0:1,mlx5_9 min-rate=200 timeout=$(scaled 20)
mkdir -p "$TMP/textfile"
echo "keep" >"$TMP/target"
ln -s "$TMP/target" "$TMP/textfile/rdmarun.prom"   # a link planted where the file goes
run "$RDMARUN" check --config "$SITE/prom.ini" --sysfs "$DATA/sysfs/ib-mlx5" --prometheus "$TMP/textfile/rdmarun.prom"
check "--prometheus over a planted link: refused (the node is unhealthy: 69 wins over 73)" 69 \
    "--prometheus $TMP/textfile/rdmarun.prom: it is a symbolic link, which rdmarun never replaces"
[ -L "$TMP/textfile/rdmarun.prom" ] && [ "$(cat "$TMP/target")" = keep ] && [ "$(ls -A "$TMP/textfile" | wc -l)" = 1 ]
ok $? "--prometheus: the link and its target are left as they were, no temporary file left"
# Not a regular file of the caller's: a FIFO, a device node (as root: a
# copy of /dev/null's), another user's file. Each is refused and kept.
mkfifo "$TMP/textfile/fifo.prom"
targets=("$TMP/textfile/fifo.prom:FIFO")
if [ "$(id -u)" = 0 ]; then
    mknod "$TMP/textfile/null.prom" c 1 3 && targets+=("$TMP/textfile/null.prom:character device")
    echo theirs >"$TMP/textfile/theirs.prom" && chown 65534 "$TMP/textfile/theirs.prom" &&
        targets+=("$TMP/textfile/theirs.prom:regular file of another user's")
fi
for t in "${targets[@]}"; do
    f=${t%%:*} kind=${t#*:}
    before=$(stat -c %F:%U:%i "$f")
    run "$RDMARUN" check --config "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe" --prometheus "$f"
    check "--prometheus over a $kind: refused, 73" 73 "--prometheus $f: it is a $kind, which rdmarun never replaces"
    [ "$(stat -c %F:%U:%i "$f")" = "$before" ]; ok $? "--prometheus: the $kind is left as it was"
done
rm -f "$TMP/textfile/rdmarun.prom" "$TMP/textfile/"*.prom
run "$RDMARUN" check --config "$SITE/prom.ini" --sysfs "$DATA/sysfs/ib-mlx5" --prometheus "$TMP/textfile/rdmarun.prom"
check "--prometheus: the check runs as ever" 69 "check rate FAILED: RDMARUN-RATE"
if /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
    /usr/bin/python3 - "$TMP/textfile/rdmarun.prom" <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families
m = {(s.name, tuple(sorted(s.labels.items()))): s.value
     for f in text_string_to_metric_families(open(sys.argv[1]).read()) for s in f.samples}
want = {("rdmarun_check_healthy", ()): 0,
        ("rdmarun_check_passed", (("check", "devices"),)): 0,
        ("rdmarun_check_passed", (("check", "rate"),)): 0,
        ("rdmarun_check_faults", (("check", "devices"), ("code", "RDMARUN-DEVICE-ABSENT"))): 1,
        ("rdmarun_check_faults", (("check", "rate"), ("code", "RDMARUN-RATE"))): 1}
bad = [k for k, v in want.items() if m.get(k) != v]
sys.exit(1 if bad or ("rdmarun_check_timestamp_seconds", ()) not in m else 0)
PY
    ok $? "--prometheus: Prometheus' own parser reads healthy 0, each check and each fault code"
else
    skip "--prometheus read by Prometheus' parser" "python3-prometheus-client is not installed"
fi
[ -f "$TMP/textfile/rdmarun.prom" ] && [ "$(stat -c %a "$TMP/textfile/rdmarun.prom")" = 644 ] &&
    [ "$(ls -A "$TMP/textfile" | wc -l)" = 1 ]
ok $? "--prometheus: a new file, 0644; no temporary file left"
ino=$(stat -c %i "$TMP/textfile/rdmarun.prom")
run "$RDMARUN" check --config "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe" --prometheus "$TMP/textfile/rdmarun.prom"
check "--prometheus on a healthy node: 0" 0 "is healthy"
[ "$(stat -c %i "$TMP/textfile/rdmarun.prom")" != "$ino" ]
ok $? "--prometheus: its own earlier file is replaced whole (a new inode: renamed over)"
grep -qx "rdmarun_check_healthy 1" "$TMP/textfile/rdmarun.prom"; ok $? "--prometheus: healthy 1"
run "$RDMARUN" check --config "$SITE/good.ini" --sysfs "$DATA/sysfs/rxe" --prometheus "$TMP/no/such/dir/r.prom"
check "--prometheus into a folder that is not there: 73, with the reason" 73 \
    "cannot write $TMP/no/such/dir/r.prom: No such file or directory"

# Flaps and drops (issue 38): the ports' history kept between checks in a
# state file. The rules' times are real: a test writes the history it needs
# with times in the past, never a fake clock.
FT=$TMP/flap-tree
cp -r "$DATA/sysfs/ib-mlx5" "$FT"
LD=$FT/class/infiniband/mlx5_0/ports/1/counters/link_downed
mkdir -p "$TMP/state"
conf flaps devices=mlx5_0 port-state=any flaps=yes "state=$TMP/state/port-state" timeout=$(scaled 20)
flaps() { run "$RDMARUN" check --config "$SITE/flaps.ini" --sysfs "$FT"; }
flaps
check "flaps: the first check only records (port 2 is DOWN, but just seen so)" 0 "is healthy"
grep -q "^down mlx5_0 2 " "$TMP/state/port-state" && grep -q "^downed mlx5_0 1 [0-9]* 0$" "$TMP/state/port-state"
ok $? "flaps: the state holds port 2's first time down and port 1's link_downed"
echo 2 >"$LD"
flaps
check "flaps: link_downed rose by 2 within the window: below flap-count 3, healthy" 0 "is healthy"
echo 3 >"$LD"
flaps
check "flaps: a third link down within the window is a flap (RDMARUN-FLAP)" 69 \
    "check flaps FAILED: RDMARUN-FLAP: mlx5_0 port 1 went down 3 times in the last 43200 s (link_downed now 3; 3 or more make a flap"
now=$(date +%s)
printf 'downed mlx5_0 1 %s 0\ndowned mlx5_0 1 %s 1\n' $((now - 50000)) $((now - 44000)) >"$TMP/state/port-state"
echo 7 >"$LD"
flaps
check_without "flaps: rises older than the window are not a flap (a node unchecked for a day)" 0 \
    "RDMARUN-FLAP" "is healthy"
printf 'down mlx5_0 2 %s\n' $((now - 300)) >"$TMP/state/port-state"
flaps
check "flaps: down for 300 s, past drop-after 240: dropped (RDMARUN-PORT-DROPPED)" 69 \
    "RDMARUN-PORT-DROPPED: mlx5_0 port 2 has been down for 3"
printf 'down mlx5_0 2 %s\n' $((now - 60)) >"$TMP/state/port-state"
flaps
check_without "flaps: down for 60 s is not dropped yet" 0 "RDMARUN-PORT-DROPPED" "is healthy"
rm -f "$TMP/state/port-state"
printf 'down mlx5_0 2 1\n' >"$TMP/planted"
ln -s "$TMP/planted" "$TMP/state/port-state"
flaps
check_without "flaps: a state file that is a link is not read (no drop from its line)" 0 \
    "RDMARUN-PORT-DROPPED" "is healthy"
[ ! -L "$TMP/state/port-state" ] && [ "$(cat "$TMP/planted")" = "down mlx5_0 2 1" ]
ok $? "flaps: and it is replaced by the real state, the link's target untouched"
# A RoCE port has no link_downed: the downs the checks saw (up at one,
# down at the next) are counted instead.
RT=$TMP/flap-roce
cp -r "$DATA/sysfs/roce-lossless" "$RT"
RP=$RT/class/infiniband/mlx5_0/ports/1
conf rflaps devices=mlx5_0 port-state=any flaps=yes "state=$TMP/state/roce-state" timeout=$(scaled 20)
rflap() { printf '%s\n' "$1" >"$RP/state"; run "$RDMARUN" check --config "$SITE/rflaps.ini" --sysfs "$RT"; }
rflap "4: ACTIVE"; rflap "1: DOWN"; rflap "4: ACTIVE"; rflap "1: DOWN"; rflap "4: ACTIVE"
check "flaps without link_downed: 2 downs seen, below flap-count 3" 0 "is healthy"
rflap "1: DOWN"
check "flaps without link_downed: a third down seen is a flap" 69 \
    "RDMARUN-FLAP: mlx5_0 port 1 went down 3 times in the last 43200 s (seen down by the checks: it has no link_downed"
rflap "1: DOWN"
check "flaps without link_downed: a port still down is not a new down" 69 "went down 3 times"
: >"$TMP/a-file"   # a folder that is a file: no one, root neither, writes in it
conf flaps2 devices=mlx5_0 port-state=any flaps=yes "state=$TMP/a-file/port-state" timeout=$(scaled 20)
run "$RDMARUN" check --config "$SITE/flaps2.ini" --sysfs "$FT"
check "flaps: a state that cannot be written is said (RDMARUN-STATE)" 69 \
    "RDMARUN-STATE: cannot keep the ports' history in $TMP/a-file/port-state"

# The kernel's log (kmsg = yes): a recorded node's "kmsg" beside its tree,
# tests/data/kmsg/README says why each record is there.
cp -r "$DATA/sysfs/roce-lossless" "$TMP/sys-kmsg"
cp "$DATA/kmsg/mlx5-events.kmsg" "$TMP/sys-kmsg/kmsg"
conf kmsg devices=mlx5_0:1 kmsg=yes timeout=$(scaled 20)
hc "$SITE/kmsg.ini" --sysfs "$TMP/sys-kmsg"
check "the kernel's events of the last day, each with its code" 69 \
    "RDMARUN-KMSG-FIRMWARE: mlx5_0: the kernel logged firmware commands failed or timed out 1 time in the last 86400 s, last at 89000.0 s after boot: 'mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid 4242): CREATE_MKEY(0x200) op_mod(0x0) failed" \
    "RDMARUN-KMSG-TEMPERATURE: mlx5_0: the kernel logged a module or sensor ran too hot 1 time" \
    "RDMARUN-KMSG-LINK-FLAP: mlx5_0: the kernel logged its link went down 3 times in the last 86400 s, last at 89800.0 s"
check_without "a PCIe warning older than the window is not judged" 69 "KMSG-PCIE" "KMSG-FIRMWARE"
check_without "a record a process wrote, and another device's, are not judged" 69 "KMSG-HEALTH" "KMSG-FIRMWARE"
check_without "a line that is not a record is skipped" 69 "not a kmsg record" "KMSG-FIRMWARE"
conf kmsgw devices=mlx5_0:1 kmsg=yes kmsg-window=100000 flap-count=4 timeout=$(scaled 20)
hc "$SITE/kmsgw.ini" --sysfs "$TMP/sys-kmsg"
check "a wider window takes the PCIe link limited at boot" 69 \
    "RDMARUN-KMSG-PCIE: mlx5_0: the kernel logged its PCIe link limited below its capability 1 time in the last 100000 s, last at 5.2 s after boot: 'mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link"
check_without "3 link downs are no flap at flap-count 4" 69 "KMSG-LINK-FLAP" "KMSG-PCIE"
printf '2,940,89900000000,-;mlx5_core 0000:3b:00.0: poll_health:800:(pid 0): device'"'"'s health compromised - reached miss count\n' >>"$TMP/sys-kmsg/kmsg"
hc "$SITE/kmsg.ini" --sysfs "$TMP/sys-kmsg"
check "the kernel's own health-lost record is judged" 69 "RDMARUN-KMSG-HEALTH: mlx5_0: the kernel logged its firmware stopped answering"
cp -r "$DATA/sysfs/roce-lossless" "$TMP/sys-kmsg-none"
hc "$SITE/kmsg.ini" --sysfs "$TMP/sys-kmsg-none"
check "a recording without a kernel log: unknown, not failed" 0 "rdmarun: check kmsg: the kernel's log (the recording's kmsg) unknown" "is healthy"
mkfifo "$TMP/sys-kmsg-none/kmsg"
hc "$SITE/kmsg.ini" --sysfs "$TMP/sys-kmsg-none"
check "a FIFO planted as the log is refused, not waited on" 0 "the kernel's log (the recording's kmsg) unknown" "is healthy"

# The manifest (issue 38): the node against a good node's probe --json.
# Each case changes one thing in a copy of the recorded node and names the
# code it must get, written from what the change is.
"$RDMARUN" probe --json --sysfs "$DATA/sysfs/ib-mlx5" >"$TMP/manifest.json"
conf man devices=mlx5_0:1 timeout=$(scaled 20)
mcheck() { run "$RDMARUN" check --config "$SITE/man.ini" --sysfs "$1" --manifest "$2"; }
mcheck "$DATA/sysfs/ib-mlx5" "$TMP/manifest.json"
check "manifest: the node the manifest was taken on matches it" 0 "is healthy: 2 checks passed"
D=class/infiniband
# mcases TREE MANIFEST, with "CODE|CHANGE" lines on stdin: each CHANGE made
# to a copy of TREE must give exactly CODE against MANIFEST.
mcases() {
    while IFS='|' read -r want change; do
        rm -rf "$TMP/mt"
        cp -r "$1" "$TMP/mt"
        (cd "$TMP/mt" && eval "$change")
        mcheck "$TMP/mt" "$2"
        got=$(printf '%s\n' "$out" | grep -o 'RDMARUN-MANIFEST-[A-Z-]*' | sort -u | tr '\n' ' ')
        [ "$rc" = 69 ] && [ "$got" = "$want " ]
        ok $? "manifest: $change: $want (got: ${got:-none}, status $rc)"
    done
}
mcases "$DATA/sysfs/ib-mlx5" "$TMP/manifest.json" <<'CASES'
RDMARUN-MANIFEST-FIRMWARE|echo 16.35.4030 >$D/mlx5_0/fw_ver
RDMARUN-MANIFEST-BOARD|echo MT_0000000099 >$D/mlx5_0/board_id
RDMARUN-MANIFEST-NUMA|echo 1 >$D/mlx5_0/device/numa_node
RDMARUN-MANIFEST-RATE|echo '56 Gb/sec (4X FDR)' >$D/mlx5_0/ports/1/rate
RDMARUN-MANIFEST-LINK-LAYER|echo Ethernet >$D/mlx5_0/ports/2/link_layer
RDMARUN-MANIFEST-NETDEV|mv $D/mlx5_0/device/net/ib0 $D/mlx5_0/device/net/ib7
RDMARUN-MANIFEST-PCIE|echo 8 >$D/mlx5_0/device/current_link_width
RDMARUN-MANIFEST-GID|rm $D/mlx5_1/ports/1/gids/0
RDMARUN-MANIFEST-DEVICE|rm -r $D/mlx5_1
RDMARUN-MANIFEST-DEVICE|cp -r $D/mlx5_1 $D/mlx5_2
RDMARUN-MANIFEST-PORT|rm -r $D/mlx5_0/ports/2
CASES
# P_Keys and the RDMA stack's modules: a copy of the node with a P_Key
# table (two set, one empty) and three modules (an out-of-tree version, a
# srcversion, an in-tree one).
MK=$TMP/mk
cp -r "$DATA/sysfs/ib-mlx5" "$MK"
mkdir -p "$MK/$D/mlx5_0/ports/1/pkeys" "$MK/module/ib_core" "$MK/module/mlx5_core" "$MK/module/mlx5_ib"
echo 0xffff >"$MK/$D/mlx5_0/ports/1/pkeys/0"; echo 0x8001 >"$MK/$D/mlx5_0/ports/1/pkeys/1"
echo 0x0000 >"$MK/$D/mlx5_0/ports/1/pkeys/2"
echo 24.10-1.1.4 >"$MK/module/mlx5_core/version"; echo 5F0A7D1C39B2E0C6A1D2B3F >"$MK/module/mlx5_ib/srcversion"
run "$RDMARUN" probe --sysfs "$MK"
check "probe: the P_Keys that are set, and each module's version" 0 \
    "port 1: ACTIVE (LinkUp), InfiniBand, 100 Gb/sec (4X EDR), LID 0x1a, SM LID 0x1, P_Keys 0xffff,0x8001" \
    "kernel unknown; RDMA modules: ib_core in-tree, mlx5_core 24.10-1.1.4, mlx5_ib srcversion 5F0A7D1C39B2E0C6A1D2B3F"
"$RDMARUN" probe --json --sysfs "$MK" >"$TMP/mk.json"
"$RDMARUN" probe --json --facts "$TMP/mk.json" | grep -v '"source"' >"$TMP/mk2.json"
grep -v '"source"' "$TMP/mk.json" | cmp -s - "$TMP/mk2.json"; ok $? "--facts keeps P_Keys and module versions (the JSON round trip)"
mcheck "$MK" "$TMP/mk.json"
check "manifest with P_Keys and modules: the node it was taken on matches" 0 "is healthy"
mcases "$MK" "$TMP/mk.json" <<'CASES'
RDMARUN-MANIFEST-PKEY|echo 0x0000 >$D/mlx5_0/ports/1/pkeys/1
RDMARUN-MANIFEST-PKEY|echo 0x8002 >$D/mlx5_0/ports/1/pkeys/2
RDMARUN-MANIFEST-MODULE|echo 23.10-2.1.3 >module/mlx5_core/version
RDMARUN-MANIFEST-MODULE|rm -r module/mlx5_ib
CASES
check "manifest: a module missing says so, with the fix" 69 \
    "RDMARUN-MANIFEST-MODULE: kernel module mlx5_ib is not loaded, the manifest has mlx5_ib srcversion 5F0A7D1C39B2E0C6A1D2B3F (hint: modprobe mlx5_ib)"
# The kernel: this node's own (live facts), against a subset naming another.
printf '{"rdmarun_facts": 1, "kernel": "0.0.1-other"}\n' >"$TMP/kernel.json"
conf kern port-state=any timeout=$(scaled 20)
run "$RDMARUN" check --config "$SITE/kern.ini" --manifest "$TMP/kernel.json"
check "manifest: another kernel release (this node's, read live)" 69 \
    "RDMARUN-MANIFEST-KERNEL: this node runs kernel $(uname -r), the manifest 0.0.1-other"
printf '{"rdmarun_facts": 1, "devices": [{"name": "mlx5_0", "fw_ver": "16.35.2000"}, {"name": "mlx5_1"}]}\n' >"$TMP/subset.json"
mcheck "$DATA/sysfs/ib-mlx5" "$TMP/subset.json"
check "manifest: a site's subset (device names, mlx5_0's firmware) matches the node" 0 "is healthy"
echo "not json" >"$TMP/bad-manifest.json"
mcheck "$DATA/sysfs/ib-mlx5" "$TMP/bad-manifest.json"
check "manifest: one that cannot be read fails the check, said as the facts reader says it (RDMARUN-MANIFEST)" 69 \
    "check manifest FAILED: RDMARUN-MANIFEST: "

done_testing
