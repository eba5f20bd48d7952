#!/bin/sh
# The evidence at scale (figures, not a test): synthetic UCX reports of RANKS
# ranks (each its version line, its DIAG lines and 8 endpoint lines, as
# UCX 1.13 writes them) read (1) live, through the supervisor, from a
# launcher that writes them to its stderr (one read of up to 64 KiB is one
# poll of the evidence; targets: under 50 ms per poll at 10,000 ranks), and
# (2) by rdmarun verify from the evidence file, the final verdict (target:
# under 2 s). Exits 1 when a figure is missing.
#   benchmarks/evidence-scale.sh [RANKS]   (from a built tree; BENCH_SHORT=1: 2000 ranks)
set -eu
cd "$(dirname "$0")/.."
ranks=${1:-${BENCH_SHORT:+2000}}
ranks=${ranks:-10000}
rdmarun=${RDMARUN:-$PWD/rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v n="$ranks" 'BEGIN {
    for (r = 0; r < n; r++) {
        h = sprintf("node%04d", int(r / 64)); p = 10000 + r
        printf "[1796126211.%06d] [%s:%d :0]     ucp_context.c:1849 UCX  INFO  Version 1.13.1 (loaded from /lib/x86_64-linux-gnu/libucp.so.0)\n", r, h, p
        printf "[1796126211.%06d] [%s:%d :0]       rdmacm_cm.c:928  UCX  DIAG  rdma_create_event_channel failed: No such device\n", r, h, p
        for (e = 0; e < 8; e++)
            printf "[1796126212.%06d] [%s:%d :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[%d]: tag(rc_mlx5/mlx5_0:1 sysv/memory) rma(rc_mlx5/mlx5_0:1) am(rc_mlx5/mlx5_0:1);\n", r, h, p, e
    }
}' >"$tmp/reports"
lines=$(wc -l <"$tmp/reports")
bytes=$(wc -c <"$tmp/reports")
# A launcher that writes the ranks' reports to its stderr, as mpirun forwards them.
printf '#!/bin/sh\ncat %s >&2\n' "$tmp/reports" >"$tmp/launcher"
chmod +x "$tmp/launcher"
ms() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f", (e - s) / 1e6 }'; }
s=$(date +%s%N); cat "$tmp/reports" >/dev/null; e=$(date +%s%N); cat_ms=$(ms "$s" "$e")
s=$(date +%s%N)
"$rdmarun" -p shm --mpirun "$tmp/launcher" --evidence-dir "$tmp/ev" -np "$ranks" ./app \
    >"$tmp/out" 2>"$tmp/err" || true
e=$(date +%s%N)
live_ms=$(ms "$s" "$e")
grep -q "RDMA verified: $ranks processes" "$tmp/err" || { echo "evidence-scale: the live verdict is missing" >&2; cat "$tmp/err" >&2; exit 1; }
s=$(date +%s%N)
"$rdmarun" verify "$tmp/ev/ucx.log" >"$tmp/vout" 2>&1 || true
e=$(date +%s%N)
verify_ms=$(ms "$s" "$e")
grep -q "RDMA verified: $ranks processes" "$tmp/vout" || { echo "evidence-scale: the verify verdict is missing" >&2; exit 1; }
echo "$ranks ranks: $lines report lines, $bytes bytes"
awk -v l="$live_ms" -v c="$cat_ms" -v b="$bytes" -v v="$verify_ms" 'BEGIN {
    polls = int((b + 65535) / 65536)
    printf "live, through the supervisor: %.0f ms in all (%.0f ms reading them with cat), %d polls of <= 64 KiB: %.2f ms per poll (target < 50)\n", l, c, polls, l / polls
    printf "final verdict from the evidence file (rdmarun verify): %.0f ms (target < 2000)\n", v
}'
