#!/bin/sh
# The verdict at scale (figures, not a test). Synthetic logs of 100,000 and
# 1,000,000 ranks on 10,000 hosts in four shapes: UCX 1.13 endpoint lines
# (an inter-node and an intra-node ep_cfg a rank), UCX 1.18 protocol tables
# (UCX_PROTO_INFO=y, five lines a rank), NCCL channel lines (two a rank), and
# a mix of the three. Each log ends with ONE process more, on another host,
# whose path between nodes is TCP: the verdict must be that fallback, naming
# the process, its host and its lane, at every size. For each log: rdmarun
# verify's wall time and peak RSS, and the same read live by the supervisor
# (a launcher that writes the ranks' reports to its stdout, as mpirun
# forwards them); and read live from Hydra's mpiexec with every piece
# labelled by rank (each rank's line in two pieces, the demux joining them).
# Targets at 1,000,000 ranks, and so at fewer: <= 10 s and
# <= 64 MiB, each figure printed beside them, met or missed; memory flat
# from the smallest size to the largest (<= 1.25 x). Exits 1 when a verdict
# is wrong or a figure is missing.
#   benchmarks/evidence-scale.sh [RANKS...]   (from a built tree; default 100000 1000000;
#                                              BENCH_SHORT=1: 100000 200000)
set -eu
cd "$(dirname "$0")/.."
sizes=${*:-${BENCH_SHORT:+100000 200000}}
sizes=${sizes:-100000 1000000}
rdmarun=${RDMARUN:-$PWD/rdmarun}
. benchmarks/lib.sh
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The log of N ranks of one shape, on 10,000 hosts (N / 10,000 ranks a host,
# consecutive pids, as a node's launcher starts them).
generate() {
    awk -v n="$1" -v hosts=10000 -v fam="$2" 'BEGIN {
        per = n / hosts
        b = "+--------------------------------+---------------------------------+------------------------+"
        for (r = 0; r < n; r++) {
            h = sprintf("node%05d", int(r / per)); p = 10000 + r % per; t = r % 1000000
            f = fam
            if (fam == "mix") f = (r % 3 == 0) ? "ucx-lanes" : (r % 3 == 1) ? "ucx-tables" : "nccl"
            if (f == "ucx-lanes") {
                printf "[1796126212.%06d] [%s:%d :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(rc_mlx5/mlx5_0:1) rma(rc_mlx5/mlx5_0:1) am(rc_mlx5/mlx5_0:1);\n", t, h, p
                printf "[1796126212.%06d] [%s:%d :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[2]: tag(sysv/memory cma/memory) am(sysv/memory);\n", t, h, p
            } else if (f == "ucx-tables") {
                printf "[1796126212.%06d] [%s:%d:0]   %s\n", t, h, p, b
                printf "[1796126212.%06d] [%s:%d:0]   | ucp_context_0 inter-node cfg#1 | tagged message by ucp_tag_send* from host memory |\n", t, h, p
                printf "[1796126212.%06d] [%s:%d:0]   %s\n", t, h, p, b
                printf "[1796126212.%06d] [%s:%d:0]   |                        0..2030 | eager short                     | rc_mlx5/mlx5_0:1/path0 |\n", t, h, p
                printf "[1796126212.%06d] [%s:%d:0]   %s\n", t, h, p, b
            } else {
                printf "%s:%d:%d [0] NCCL INFO Channel 00/0 : %d[0] -> %d[0] [send] via NET/IB/0/GDRDMA\n", h, p, p + 7, r, (r + 8) % n
                printf "%s:%d:%d [0] NCCL INFO Channel 01/0 : %d[0] -> %d[0] [send] via NET/IB/0/GDRDMA\n", h, p, p + 7, r, (r + 8) % n
            }
        }
        printf "[1796126299.000000] [node99999:4242 :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(tcp/eth0) am(tcp/eth0);\n"
    }'
}

# keep|drop OUT COMMAND...: its wall time (s) and peak RSS (KiB); its stderr
# in OUT, and its stdout unless dropped (a job's own lines pass through
# rdmarun: the tables UCX_PROTO_INFO prints are the job's, not rdmarun's).
measure() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
with open(sys.argv[2], "w") as out:
    t = time.monotonic()
    subprocess.run(sys.argv[3:], stderr=out,
                   stdout=out if sys.argv[1] == "keep" else subprocess.DEVNULL)
    wall = time.monotonic() - t
print("%.2f %d" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}

want="FALLBACK: process 4242 on node99999 used tcp/eth0 .* beside RDMA lanes"

# Hydra's mpiexec with every piece labelled (-prepend-pattern LABEL%r],
# src/plan/argv_hydra.c): a launcher that takes the pattern rdmarun gives it
# and writes each of N ranks' UCX line in two pieces, 1,000 ranks at a time
# (their first pieces, then their second ones: 1,000 unfinished lines held
# at once), the last rank's line on TCP between nodes. (With every rank's
# first piece before any second one, 1,000,000 lines held at once: 3.3 s,
# 194 MiB, the pieces themselves about 120 MB.)
hydra_launcher() {
    cat >"$tmp/hydra" <<EOF
#!/bin/sh
while [ \$# -gt 0 ] && [ "\$1" != -prepend-pattern ]; do shift; done
label=\${2%%%r]}
exec awk -v n=$1 -v label="\$label" 'BEGIN {
    for (g = 0; g < n; g += 1000) {
        for (r = g; r < n && r < g + 1000; r++)
            printf "%s%d][1796126212.%06d] [node%05d:%d :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(", label, r, r % 1000000, int(r / 100), 10000 + r % 100
        for (r = g; r < n && r < g + 1000; r++)
            printf "%s%d]%s) am(%s);\\n", label, r, r < n - 1 ? "rc_mlx5/mlx5_0:1" : "tcp/eth0", r < n - 1 ? "rc_mlx5/mlx5_0:1" : "tcp/eth0"
    }
}'
EOF
    chmod +x "$tmp/hydra"
}
hydra_want="FALLBACK: process .* used tcp/eth0"
status=0
mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo "live: a launcher that writes the log to its stdout, as mpirun forwards the ranks' reports"
first= last=
for shape in ucx-lanes ucx-tables nccl mix; do
    for n in $sizes; do
        generate "$n" "$shape" >"$tmp/log"
        lines=$(wc -l <"$tmp/log")
        printf '#!/bin/sh\nexec cat %s\n' "$tmp/log" >"$tmp/launcher"
        chmod +x "$tmp/launcher"
        set -- $(measure keep "$tmp/out" "$rdmarun" verify "$tmp/log")
        v_s=${1:-} v_kb=${2:-}
        grep -q "$want" "$tmp/out" ||
            { echo "evidence-scale: $shape $n: verify missed the fallback: $(tail -c 300 "$tmp/out")" >&2; status=1; }
        rm -rf "$tmp/ev"
        set -- $(measure drop "$tmp/out" "$rdmarun" -p shm --mpirun "$tmp/launcher" \
            --evidence-dir "$tmp/ev" -np 2 ./app)
        l_s=${1:-} l_kb=${2:-}
        tail -n 1 "$tmp/out" | grep -q "$want" ||
            { echo "evidence-scale: $shape $n: live missed the fallback: $(tail -c 300 "$tmp/out")" >&2; status=1; }
        rm -rf "$tmp/ev" "$tmp/out"
        label="$shape, $n ranks ($lines lines)"
        figure "$label, rdmarun verify" "$v_s" s "<=" 10
        figure "$label, rdmarun verify" "$(mib "$v_kb")" MiB "<=" 64
        figure "$label, live" "$l_s" s "<=" 10
        figure "$label, live" "$(mib "$l_kb")" MiB "<=" 64
        # memory flat: the largest size's peak against the smallest's
        [ "$n" = "${sizes%% *}" ] && first="$v_kb $l_kb"
        last="$v_kb $l_kb"
    done
    set -- $first $last
    figure "$shape, verify MiB at ${sizes##* } over ${sizes%% *} ranks" \
        "$([ $# = 4 ] && awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", b / a }')" x "<=" 1.25
    figure "$shape, live MiB at ${sizes##* } over ${sizes%% *} ranks" \
        "$([ $# = 4 ] && awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", b / a }')" x "<=" 1.25
done
echo "live: Hydra-labelled pieces, every rank holding a line (the demux)"
for n in $sizes; do
    hydra_launcher "$n"
    rm -rf "$tmp/ev"
    set -- $(measure drop "$tmp/out" "$rdmarun" -p shm --launcher hydra --mpi mpich --mpirun "$tmp/hydra" \
        --evidence-dir "$tmp/ev" -np 2 ./app)
    grep -q "$hydra_want" "$tmp/out" ||
        { echo "evidence-scale: hydra $n: live missed the fallback: $(tail -c 300 "$tmp/out")" >&2; status=1; }
    rm -rf "$tmp/ev" "$tmp/out"
    figure "hydra-labelled, $n ranks, each line in two pieces, live" "${1:-}" s "<=" 10
    figure "hydra-labelled, $n ranks, each line in two pieces, live" "$(mib "${2:-}")" MiB "<=" 64
done
[ "$status" = 0 ] || bench_missing=$((bench_missing + 1))   # a wrong verdict fails too
bench_end
