#!/bin/sh
# rdmarun compare on this host: shm against tcp at 1 and 2 ranks with the
# stencil; the table, CSV, JSON and plot agree with each other and with the
# recorded runs; flagged runs are left out; interruption and --resume.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
STENCIL=$BUILD/examples/mpi_stencil
HELLO=$BUILD/examples/mpi_hello
EXIT=$BUILD/examples/mpi_exit
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }
METRIC='time_per_iter_us=([0-9.]+)'

D=$TMP/cmp
run "$RDMARUN" compare -p shm,tcp --np 1,2 --repeat 2 --warmup 1 --metric "$METRIC" -o "$D" \
    $MPIRUN_ROOT -- "$STENCIL" 256 50
check "compare shm against tcp at np 1 and 2" 0 "speedup" "efficiency" "baseline: shm"
printf '%s\n' "$out" >"$TMP/table"
[ "$(grep -c '^[0-9]' "$D/runs.csv")" = 12 ]
ok $? "runs.csv holds 2 profiles x 2 np x (1 warm-up + 2 measured) = 12 runs"
# Interleaved: every round runs each combination once, in a rotated order.
short=
for round in 0 1 2; do
    [ "$(awk -F, -v r=$round '$2 == r {print $4 "/" $5}' "$D/runs.csv" | sort -u | wc -l)" = 4 ] ||
        short="$short $round"
done
[ -z "$short" ]; ok $? "each round runs every (profile, np) once${short:+ (not round$short)}"
[ "$(awk -F, '$2 == 1 {print $4 "/" $5; exit}' "$D/runs.csv")" != \
  "$(awk -F, '$2 == 2 {print $4 "/" $5; exit}' "$D/runs.csv")" ]
ok $? "rounds start with different combinations"
[ "$(awk -F, '$4 == "tcp" && $5 == 2 {print $8 "/" $9 "/" $11}' "$D/runs.csv" | sort -u)" = $ONE_NODE_TCP/tcp/1 ]
ok $? "the 2-rank tcp runs are recorded as $ONE_NODE_TCP, as the tcp profile intends, and counted"
[ "$(awk -F, '$4 == "shm" && $5 == 2 {print $8}' "$D/runs.csv" | sort -u)" = local ]
ok $? "the 2-rank shm runs are recorded as local"
for f in summary.csv summary.json compare.conf plans/shm.np2.json plans/tcp.np1.json; do
    [ -s "$D/$f" ]; ok $? "$f written"
done
if command -v gnuplot >/dev/null; then
    [ -s "$D/scaling.png" ] && [ -s "$D/scaling.svg" ] && head -c 8 "$D/scaling.png" | grep -q PNG
    ok $? "gnuplot drew scaling.png and scaling.svg"
    # as a person sees it: 1000 x 420, the title whole (not "time_p er_i ter_u s"),
    # each profile's name in the legend, no text past the right edge
    p=$(python3 "$SRC/tests/plot-check.py" "$D/scaling" 1000 420 "strong scaling of time_per_iter_us" \
        shm tcp "parallel efficiency" 2>&1)
    ok $? "scaling.png and .svg read as drawn: $p"
else
    skip "gnuplot drew the plot" "gnuplot not installed"
fi

# Every value agrees across the recorded runs, the CSV, the JSON and the table.
python3 - "$D" "$TMP/table" <<'PY' >"$TMP/consistency" 2>&1
import csv, json, statistics, sys
d, table = sys.argv[1], open(sys.argv[2]).read().splitlines()
runs = list(csv.DictReader(open(d + "/runs.csv")))
summ = {(r["profile"], int(r["np"])): r for r in csv.DictReader(open(d + "/summary.csv"))}
js = {(r["profile"], r["np"]): r for r in json.load(open(d + "/summary.json"))["results"]}
rows = {(l.split()[0], int(l.split()[1])): l.split() for l in table if l.split()[:1] in (["shm"], ["tcp"])}
bad = 0
def same(a, b, what, digits=9):
    global bad
    if abs(a - b) > 10 ** -digits * 5 * max(1, abs(b)):
        print("mismatch", what, a, b); bad = 1
med = {}
for key in summ:
    vals = [float(r["metric"]) for r in runs if (r["profile"], int(r["np"])) == key
            and r["phase"] == "measure" and r["included"] == "1"]
    med[key] = statistics.median(vals)
    same(float(summ[key]["median"]), med[key], ("csv median",) + key)
    same(js[key]["median"], med[key], ("json median",) + key)
    same(float(rows[key][4]), med[key], ("table median",) + key, 6)   # printed with 6 digits
    cv = statistics.stdev(vals) / statistics.mean(vals)
    same(float(summ[key]["cv"]), cv, ("cv",) + key)
for p in ("shm", "tcp"):
    s = med[(p, 1)] / med[(p, 2)]
    same(float(summ[(p, 2)]["speedup"]), s, ("speedup", p))
    same(js[(p, 2)]["efficiency"], s * 1 / 2, ("efficiency", p))
    same(float(summ[(p, 2)]["ratio_to_baseline"]), med[("shm", 2)] / med[(p, 2)], ("ratio", p))
    # the efficiency's 95% interval: each round's log speedup, Student's t
    import math
    t95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
    rounds = {}
    for r in runs:
        if r["profile"] == p and r["phase"] == "measure" and r["included"] == "1":
            rounds.setdefault(r["round"], {})[r["np"]] = float(r["metric"])
    d = [math.log(v["1"] / v["2"]) for v in rounds.values() if "1" in v and "2" in v]
    if len(d) >= 2:
        h = t95[len(d) - 1] * statistics.stdev(d) / math.sqrt(len(d))
        same(js[(p, 2)]["efficiency_lo"], math.exp(statistics.mean(d) - h) / 2, ("eff lo", p), 3)
        same(js[(p, 2)]["efficiency_hi"], math.exp(statistics.mean(d) + h) / 2, ("eff hi", p), 3)
    elif js[(p, 2)]["efficiency_lo"] is not None:
        same(0, 1, ("an interval from fewer than 2 rounds", p))
print("consistent" if not bad else "inconsistent")
PY
grep -q '^consistent' "$TMP/consistency"
r=$?; [ $r = 0 ] || sed 's/^/#   /' "$TMP/consistency"
ok $r "medians, cv, speedup, efficiency and ratios agree across runs.csv, CSV, JSON and the table"
grep -Eq '^shm +1 .* 100.0%' "$TMP/table"
ok $? "the base point of a profile has 100% efficiency in the table"

# Flagged runs: a failed run and a TCP run where RDMA was expected are left out
# (TCP on one node is such a run where UCX cannot tell it stayed: 1.13).
if [ "$ONE_NODE_TCP" = fallback ]; then
    printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
    run "$RDMARUN" compare -p tcp,"$TMP/wants-rdma.ini" --np 2 --repeat 1 --warmup 0 -o "$TMP/flag" \
        $MPIRUN_ROOT -- "$HELLO"
    check "compare with a profile whose runs fall back to TCP" 0 "fell back to TCP" "wants-rdma"
    awk -F, '$4 == "wants-rdma" {print $8 "/" $11}' "$TMP/flag/runs.csv" | grep -qx fallback/0
    ok $? "the fallback run is recorded with included = 0"
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
r = {x["profile"]: x for x in j["results"]}
ok = r["wants-rdma"]["excluded"] == 1 and r["wants-rdma"]["median"] is None and \
     r["tcp"]["excluded"] == 0 and [f["profile"] for f in j["flagged_runs"]] == ["wants-rdma"]
sys.exit(0 if ok else 1)' "$TMP/flag/summary.json"
    ok $? "summary.json: the flagged run is listed and left out of the statistics"
else
    printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
    run "$RDMARUN" compare -p tcp,"$TMP/wants-rdma.ini" --np 2 --repeat 1 --warmup 0 \
        -o "$TMP/flag" $MPIRUN_ROOT -- "$HELLO"
    check "compare: TCP within one node meets an RDMA profile (UCX $UCX_VERSION)" 0 "wants-rdma"
    awk -F, '$4 == "wants-rdma" {print $8 "/" $11}' "$TMP/flag/runs.csv" | grep -qx local/1
    ok $? "the run is recorded as local and counted"
fi
run "$RDMARUN" compare -p shm --np 2 --repeat 1 --warmup 0 -o "$TMP/fail" $MPIRUN_ROOT -- "$EXIT" 3
# (its warning names the reason the run's output gives, where it gives one:
# Open MPI 5's prterun says the rank's exit code, 4.1's mpirun nothing)
check "a run that fails is flagged; nothing measured: the comparison fails with the run's status" 3 \
    "compare: run 0 (shm, 2 ranks) failed" "left out of the statistics" "no run was measured"
awk -F, 'NR > 1 {print $7 "/" $11}' "$TMP/fail/runs.csv" | grep -qx 3/0
ok $? "its exit status 3 is recorded, included = 0"

# Interrupted, then resumed: nothing finished is lost or run twice.
R=$TMP/resume
"$RDMARUN" compare -p shm --np 1,2 --repeat 3 --warmup 0 -o "$R" $MPIRUN_ROOT \
    -- "$STENCIL" 512 100 >"$TMP/int.out" 2>&1 &
pid=$!
# recorded [DIR]: how many runs DIR's runs.csv holds (DIR: $R)
recorded() { n=$(grep -c '^[0-9]' "${1:-$R}/runs.csv" 2>/dev/null); echo "${n:-0}"; }
two_recorded() { [ "$(recorded)" -ge 2 ]; }
within 60 two_recorded
kill -INT $pid
wait $pid
st=$?
[ "$st" = 130 ] && grep -q "rdmarun compare --resume $R" "$TMP/int.out"
ok $? "SIGINT stops the comparison with 130 and says how to resume (status $st)"
done_before=$(grep -c '^[0-9]' "$R/runs.csv")
[ "$done_before" -ge 2 ] && [ "$done_before" -lt 6 ]
ok $? "the runs finished before the interruption are kept ($done_before of 6)"
[ -z "$(ours -f "mpi_stencil 512 100")" ]
ok $? "no rank is left running"
run "$RDMARUN" compare --resume "$R"
check "--resume finishes the comparison" 0 "$done_before of 6 runs already recorded" "speedup"
[ "$(awk -F, 'NR > 1 {print $1}' "$R/runs.csv" | tr '\n' ' ')" = "0 1 2 3 4 5 " ]
ok $? "runs 0-5 each recorded once"

# compare.conf keeps any argument and --metric as given: ' ;' (inih's
# comment), '%' and spaces at either end are written as %XX
# (util/conf_file.c) and read back by --resume.
S=$TMP/semi
run "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o "$S" $MPIRUN_ROOT \
    --metric 'time_per_iter_us=([0-9.]+)[ ;]*' -- "$STENCIL" 512 20 ' x ; y 100% '
grep -qx 'program=%20x %3B y 100%25%20' "$S/compare.conf" &&
    grep -qxF 'metric=time_per_iter_us=([0-9.]+)[ %3B]*' "$S/compare.conf"
ok $? "compare.conf escapes ' ;', '%' and the spaces at an argument's ends (status $rc)"
run "$RDMARUN" compare --resume "$S"
check "--resume reads them back as given" 0 "1 of 1 runs already recorded" \
    "time_per_iter_us=([0-9.]+)[ ;]*; lower is better"

# Killed outright (kill -9) in the middle, then resumed: runs.csv is only
# ever appended to, a line per finished run, so no finished run is lost; a
# last line cut short (as by a power cut mid-write) is dropped and run again.
K=$TMP/kill9
"$RDMARUN" compare -p shm --np 1,2 --repeat 3 --warmup 0 -o "$K" $MPIRUN_ROOT \
    -- "$STENCIL" 512 100 >"$TMP/k9.out" 2>&1 &
pid=$!
three_recorded() { [ "$(recorded "$K")" -ge 3 ]; }
within 60 three_recorded
kill -9 $pid
wait $pid
st=$?
cp "$K/runs.csv" "$TMP/k9.before"
killed_at=$(grep -c '^[0-9]' "$TMP/k9.before")
[ "$st" = 137 ] && [ "$killed_at" -ge 3 ] && [ "$killed_at" -lt 6 ]
ok $? "kill -9 after the 3rd recorded run (status $st, $killed_at of 6 recorded)"
# The run that was going ends with the comparison (a rank ends at its next
# message; waited for, `scaled 10` s at most).
stencil_gone() { [ -z "$(ours -f "mpi_stencil 512 100")" ]; }
within 10 stencil_gone
ok $? "the run that was going does not outlive the comparison"
printf '%s,0,measure,sh' "$killed_at" >>"$K/runs.csv"
run "$RDMARUN" compare --resume "$K"
check "--resume after kill -9 and a torn last line finishes the comparison" 0 \
    "$killed_at of 6 runs already recorded" "speedup"
grep -Fxvf "$K/runs.csv" "$TMP/k9.before" >"$TMP/k9.lost"
[ ! -s "$TMP/k9.lost" ]; ok $? "every line recorded before the kill is still there, unchanged"
[ "$(awk -F, 'NR > 1 {print $1}' "$K/runs.csv" | tr '\n' ' ')" = "0 1 2 3 4 5 " ] &&
    [ "$(grep -c '^run,' "$K/runs.csv")" = 1 ] && ! grep -q ',sh$' "$K/runs.csv"
ok $? "runs 0-5 each recorded once, one header, the torn line gone"

# On a terminal, a progress line (script(1) gives the run a pseudo-terminal).
if command -v script >/dev/null; then
    script -qec "'$RDMARUN' compare -p shm --np 1,2 --repeat 1 --warmup 0 -o '$TMP/tty' $MPIRUN_ROOT -- '$HELLO'" \
        /dev/null >"$TMP/tty.out" 2>&1
    grep -q "compare: run 2/2: shm, 2 ranks; [0-9]* s elapsed, about [0-9]* s left" "$TMP/tty.out"
    ok $? "a terminal shows which run is going, the time elapsed and an estimate of what is left"
else
    skip "the progress line on a terminal" "script(1) not installed"
fi

# A profile's name goes into the gnuplot script quoted: a quote in it cannot
# end the string (gnuplot runs commands).
if command -v gnuplot >/dev/null; then
    printf '[profile]\ninherit = shm\n' >"$TMP/it's.ini"
    run "$RDMARUN" compare -p "$TMP/it's.ini" --np 1 --repeat 1 --warmup 0 -o "$TMP/quoted" \
        $MPIRUN_ROOT -- "$HELLO"
    check "compare of a profile whose name has a quote" 0 "speedup"
    grep -q "title 'it_s'" "$TMP/quoted/scaling.gp" && ! grep -q "it's" "$TMP/quoted/scaling.gp"
    ok $? "the plot's title says it_s, and the script has no stray quote"
else
    skip "a quote in a profile's name and the plot" "gnuplot not installed"
fi

# Bad input.
run "$RDMARUN" compare -p shm -- "$HELLO"
check "compare without --np" 64 "compare needs -p PROFILE[,PROFILE...] and --np N[,N...]"
run "$RDMARUN" compare -p shm --np 0 -- "$HELLO"
check "--np 0" 64 "--np 0: expected whole numbers above 0, separated by commas (N[,N...])"
run "$RDMARUN" compare -p shm,tcp --np 1 --baseline ib -- "$HELLO"
check "a baseline that is not compared" 64 "--baseline ib is not one of the profiles compared"
run "$RDMARUN" compare -p shm --np 1 --metric '(' -- "$HELLO"
check "a metric that is not a regex" 64 "is not a regular expression"
run "$RDMARUN" compare -p shm --np 1 -o "$D" -- "$HELLO"
check "a folder that already holds a comparison" 64 "already holds a comparison" "--resume"
run "$RDMARUN" compare --resume "$TMP/nothing"
check "--resume of a folder that is not there" 66 "cannot open $TMP/nothing: No such file or directory"
run "$RDMARUN" compare -p nosuchprofile --np 1 -o "$TMP/nsp" -- "$HELLO"
check "a profile that does not exist: its reason on the terminal and 66, before any run" 66 \
    "compare: profile nosuchprofile, 1 ranks: profile 'nosuchprofile' not found"
run "$RDMARUN" compare -p shm,roce --np 1 -o "$TMP/noroce" -- "$HELLO"
check "a profile this node cannot run: the plan's reason and its status (69)" 69 \
    "compare: profile roce, 1 ranks: profile 'roce' is for RoCE but this node has no ACTIVE RoCE port"

# A metric where more is better: a bandwidth.
run "$RDMARUN" compare -p shm --np 2 --repeat 2 --warmup 0 --metric 'bandwidth_MBps=([0-9.]+)' \
    --higher-is-better --baseline shm -o "$TMP/bw" $MPIRUN_ROOT -- "$BUILD/examples/mpi_pingpong" 20 8 65536
check "--higher-is-better: the table says so" 0 "higher is better"
[ "$(awk -F, 'NR == 2 {print $6}' "$TMP/bw/summary.csv")" = higher ] &&
    grep -q '"better": "higher"' "$TMP/bw/summary.json" && grep -q '^better=higher' "$TMP/bw/compare.conf"
ok $? "summary.csv, summary.json and compare.conf record the direction"
# Wall times are the runs' own, not steps of a polling tick: each at least
# its program's length, on no 10 ms tick, and programs 0.3 s apart in length
# at least 0.1 s apart (each length's shortest of three runs; a busy machine
# adds a tenth of a second either way, whatever the build's speed).
for t in 0.05 0.35; do
    "$RDMARUN" compare -p shm --np 1 --repeat 3 --warmup 0 -o "$TMP/wall$t" $MPIRUN_ROOT \
        -- sh -c "sleep $t" >/dev/null 2>&1
done
walls=$(awk -F, 'FNR > 1 {printf "%s%s", sep, $6; sep = " "} FNR == 1 && NR > 1 {sep = ", "}' \
    "$TMP/wall0.05/runs.csv" "$TMP/wall0.35/runs.csv")
awk -F, 'FNR == 1 {f++} FNR > 1 {
        w = $6 + 0; n++; len = f == 1 ? 0.05 : 0.35
        if (w < len) bad = 1
        if (int(w * 100 + 0.5) != w * 100) offtick = 1
        if (!(f in m) || w < m[f]) m[f] = w }
    END { exit !(n == 6 && !bad && offtick && m[2] - m[1] > 0.1) }' \
    "$TMP/wall0.05/runs.csv" "$TMP/wall0.35/runs.csv"
ok $? "wall times are the runs' own, not steps of a polling tick (${walls:-none} s)"
# The speed of light (issue 50): the metric's bin a message size of
# examples/mpi_pingpong, this node's facts saved with its NUMA node's memory
# bandwidth as the firmware's HMAT would give it (100000 MiB/s = 104.86
# GB/s): the model's one-way time for 1 MiB over shared memory is 0.08 us +
# 1048576 B / (104.8576 / 2 GB/s) = 20.08 us, over the median.
"$RDMARUN" probe --json | python3 -c 'import json, sys
f = json.load(sys.stdin)
for n in f["host"]["numa_nodes"]:
    n["bandwidth_mibs"] = 100000
json.dump(f, sys.stdout)' >"$TMP/hmat.json"
run "$RDMARUN" compare --facts "$TMP/hmat.json" -p shm --np 2 --repeat 2 --warmup 0 \
    --metric '(pingpong size=[0-9]+) .*latency_us=([0-9.]+)' -o "$TMP/light" $MPIRUN_ROOT -- \
    "$BUILD/examples/mpi_pingpong" 20 1048576
check "compare with a bin the model knows: the share of the speed of light" 0 "of light" \
    "of light: the model's time over the median (rdmarun(1), JUDGE): shm, 2 ranks: the memory's copy ceiling: 104.9 GB/s / 2"
python3 - "$TMP/light" <<'PY'
import csv, json, statistics, sys
d = sys.argv[1]
runs = [r for r in csv.DictReader(open(d + "/runs.csv")) if r["included"] == "1"]
assert {r["bin"] for r in runs} == {"pingpong size=1048576"}, runs
med = statistics.median(float(r["metric"]) for r in runs)
want = (0.08 + 1048576 / (100000 * 1.048576e-3 / 2 * 1e3)) / med
got = json.load(open(d + "/summary.json"))["results"][0]["light"]
assert abs(got - want) < 1e-6, (got, want)
print("%.1f%% of light: %.2f us over a %.2f us median" % (got * 100, want * med, med))
PY
ok $? "its figure is the model's 20.08 us over the runs' median, from runs.csv by hand"
# More ranks than this node's cores: Open MPI refuses the runs; each run's
# warning says why, from its output (issue 51: it was only in runs/N.out).
many=$(($(nproc) + 1))
run "$RDMARUN" compare -p shm --np "$many" --repeat 1 --warmup 0 -o "$TMP/slots" $MPIRUN_ROOT -- "$HELLO"
check "np $many on $(nproc) cores: the run's warning names Open MPI's reason, its status compare's" \
    "$(awk -F, 'NR == 2 {print $7}' "$TMP/slots/runs.csv")" \
    "compare: run 0 (shm, $many ranks) failed: " "not enough slots" "left out of the statistics"
check_without "and no plot of nothing is attempted" "$rc" "gnuplot failed" "not enough slots"
run "$RDMARUN" compare -p shm --np 1 --higher-is-better -o "$TMP/bw2" -- "$HELLO"
check "--higher-is-better without --metric: 64" 64 "--higher-is-better is for a --metric"

done_testing
