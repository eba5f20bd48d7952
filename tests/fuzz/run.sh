#!/bin/bash
# Build the libFuzzer targets with clang (ASan + UBSan) from rdmarun's own
# sources and run each for FUZZ_SECONDS (default 60), seeded from the test
# data, as many at once as there are cores (FUZZ_JOBS), with LeakSanitizer
# on. A crash, a leak, a timeout or running out of memory leaves its input in
# the build tree (fuzz/TARGET-crash-*, -leak-*, -timeout-*, -oom-*) and fails
# the run: add it to tests/data/fuzz-regressions/TARGET as a regression case.
# Targets whose parser has a writer (size, profile, facts, runs, tune, conf) also check
# the round trip and abort when it does not hold.
#   tests/fuzz/run.sh SRCDIR BUILDDIR
set -euo pipefail
src=$(cd "${1:?srcdir}" && pwd)
build=$(cd "${2:?builddir}" && pwd)/fuzz
seconds=${FUZZ_SECONDS:-60}
mkdir -p "$build"
cc=${FUZZ_CC:-clang}
flags="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
deps="hwloc libibverbs numa inih ucx json-c pmix libelf"
# shellcheck disable=SC2046
cflags="-I$src/src -I$(cd "$src/.." && pwd) $(pkg-config --cflags $deps)"
libs="$(pkg-config --libs $deps) -luct -lucs"
sources=$(cd "$src" && find src -name '*.c' ! -name rdmarun.c ! -name spank.c ! -name '*_main.c' | sort)   # programs of their own (libexec/)
# The build's own config.h: what configure found (the UCX API tests, the
# versions --version names) is what the fuzzed code is compiled with.
cp "$build/../config.h" "$build/config.h"
# Up to FUZZ_JOBS (default: the cores) compilers or targets at a time: each
# target still fuzzes FUZZ_SECONDS on a core of its own.
jobs=${FUZZ_JOBS:-$(nproc)}
throttle() {  # wait until fewer than $jobs background jobs run
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
}
# rdmarun's sources are compiled once, instrumented but without libFuzzer's
# main, into one archive every target links (30 s a target saved).
rm -rf "$build/obj" "$build/librdmarun-fuzz.a"
mkdir -p "$build/obj"
for f in $sources; do
    throttle
    # shellcheck disable=SC2086
    (cd "$src" && $cc ${flags/fuzzer,/fuzzer-no-link,} -I"$build" $cflags -c "$f" \
        -o "$build/obj/$(printf '%s' "${f%.c}" | tr / _).o") &
done
wait
[ "$(ls "$build"/obj/*.o | wc -l)" = "$(echo "$sources" | wc -w)" ] || { echo "fuzz: a source did not compile" >&2; exit 1; }
ar rcs "$build/librdmarun-fuzz.a" "$build"/obj/*.o

# fuzz TARGET: build it, seed its corpus, run it; its report on stdout. It
# runs in the background: TARGET.failed stays unless it ends clean.
fuzz() {
    local target=$1 bin=$build/fuzz_$1 corpus=$build/corpus-$1 clean=yes
    touch "$build/$target.failed"
    # shellcheck disable=SC2086
    (cd "$src" && $cc $flags -I"$build" $cflags -o "$bin" "tests/fuzz/fuzz_$target.c" \
        "$build/librdmarun-fuzz.a" $libs) || return
    mkdir -p "$corpus"
    case $target in
    size) printf '8M' >"$corpus/seed1"; printf '16777215T' >"$corpus/seed2"; printf '8MiB' >"$corpus/seed3" ;;
    logs) cp "$src"/tests/data/logs/*.log "$corpus/"
          # Hydra's labelled output (its first byte '[' is odd: the stream
          # reads it labelled): each line in two pieces, another rank's between.
          for f in "$src"/tests/data/logs/ucx-1.1*.log; do
              awk '{ r = NR % 3; printf "[rdmarun:0 %d]%s", r, substr($0, 1, 40)
                     printf "[rdmarun:0 %d]x\n", (r + 1) % 3
                     printf "[rdmarun:0 %d]%s\n", r, substr($0, 41) }' "$f" \
                  >"$corpus/labelled-$(basename "$f")"
          done ;;
    profile) cp "$src"/profiles/*.ini "$src"/tests/data/profiles/*.ini "$corpus/" ;;
    facts) cp "$src"/tests/data/facts/*.json "$corpus/"
           for f in ucx-1.13-tcp ompi-btl-tcp-connect-inter; do   # rdmarun report's records
               "${build%/fuzz}/rdmarun" verify --json "$src/tests/data/logs/$f.log" >"$corpus/verdict-$f.json" || true   # (a fallback is status 2)
           done
           printf '{"node": "n1", "healthy": false, "time": 1, "checks": [], "codes": ["RDMARUN-RATE"]}' \
               >"$corpus/check.json"
           printf '{"pairs_tested": "ring", "nodes": [{"host": "a"}, {"host": "b"}], "pairs": [{"from": 0, "to": 1, "ok": false, "step": "rtr"}]}' \
               >"$corpus/path.json" ;;
    runs) cp "$src"/tests/data/compare/*.csv "$corpus/" ;;
    path) cp "$src"/tests/data/path/*.txt "$corpus/" ;;
    check) cp "$src"/examples/check.ini "$corpus/example.ini"; cp "$src"/etc/check.ini "$corpus/shipped.ini"
           cp "$src"/tests/data/kmsg/*.kmsg "$corpus/"
           printf '[check]\ndevices = mlx5_0:x\ntimeout = 0\n' >"$corpus/seed1" ;;
    tune) printf '\0031 # c\n2\n1\n1\n2\n0 3 0 0\n65536 4 0 0\n' >"$corpus/seed4"
          printf '\002mca:coll:tuned:param:coll_tuned_allreduce_algorithm:enumerator:value:4:ring\n' >"$corpus/seed3"
          printf '\000sample\tconfig\n0\t0,1\t0\tlocal\t1\t0.25\truns/0000.out\tpingpong size=8\t1.5\n' >"$corpus/seed1"
          printf '\001[tune]\ndefaults = no\n[ucx]\nTLS = sm,self | tcp,self\nRNDV_THRESH = 8K | 1M\n[bind]\npolicy = numa\n' >"$corpus/seed2"
          printf '\004iterations,50.0_percentile_lat,avg_lat,overall_lat,avg_bw,overall_bw,avg_mr,overall_mr\n 500,62.808,65.652,65.652,15231.74,15231.74,15232,15232\n' >"$corpus/seed5"
          printf '\007# c\nallreduce,0,1048575,tree,ll,-1,-1,-1\nbroadcast,0,18446744073709551615,ring,ll128,-1,2,16,-1,1\n' >"$corpus/seed6" ;;
    launch) cp "$src"/tests/data/launcher-help/*.txt "$corpus/"
            # Real programs of each MPI, as the build made them (ELF, DT_NEEDED).
            for p in examples/mpi_hello examples/mpich/mpi_hello; do
                [ -f "$build/../$p" ] && cp "$build/../$p" "$corpus/$(echo "$p" | tr / _)"
            done ;;
    conf) printf '# c\nformat=2\nbase=roce\narg=%%20-x%%3B A\nmetric=time=([0-9.]+)\nkey=ucx.TLS\nvalue=rc,self\n' >"$corpus/seed1"
          printf '# old\nprofile=shm\nnp=2\nrepeat=3\nprogram=./a 100%%\n' >"$corpus/seed2" ;;
    ncclconf) cp "$src"/tests/data/fabrics/sysfs/azure-ndv5-image/recorded/etc/nccl.conf "$corpus/seed1"
              printf '# c\n  NCCL_TOPO_FILE=/a b # x\nNCCL_TOPO_FILE=/late\n' >"$corpus/seed2" ;;
    judge) cp "$src"/tests/data/judge/*.txt "$corpus/"
           printf '{"results": [{"size": 8, "in_place": {"bus_bw": 1.5}}], "config": {"devices": [{"hostname": "a"}]}}' >"$corpus/seed1.json"
           printf 'pingpong size=8 iters=1 latency_us=1.0 bandwidth_MBps=8\n' >"$corpus/seed2" ;;
    appfile) printf -- '-np 2 ./a x\n# c\n-np 1 -x A=1 --host h ./b\n' >"$corpus/seed1"
             printf -- '-np 1 -- ./a : b\n-N 2\n' >"$corpus/seed2" ;;
    esac
    echo "fuzz_$target: ${seconds}s"
    # -close_fd_mask=2: the targets' own error messages are expected; the
    # sanitizers' reports still reach the log through libFuzzer.
    # Earlier crashes (tests/data/fuzz-regressions) are part of every run's corpus.
    local regressions=$src/tests/data/fuzz-regressions/$target
    [ -d "$regressions" ] || regressions=
    # Leaks are looked for after every input that allocated more than it
    # freed (libFuzzer's -detect_leaks, which needs LeakSanitizer on).
    # check: the configured checks judge a recorded InfiniBand node's tree.
    if ! (cd "$build" && RDMARUN_FUZZ_SYSFS=$src/tests/data/sysfs/ib-mlx5 ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$seconds" \
        -max_len=65536 -timeout=20 -print_final_stats=1 -close_fd_mask=2 -detect_leaks=1 \
        -artifact_prefix="$build/$target-" "$corpus" $regressions >"$build/$target.log" 2>&1); then
        tail -n 40 "$build/$target.log"
        clean=no
    fi
    grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$build/$target.log" || true
    # The rate: 10^6 executions in a nightly hour need 278 per second.
    awk -v s="$seconds" -v t="$target" '/^stat::number_of_executed_units/ {
        printf "fuzz_%s: %d executions in %d s: %.0f per second\n", t, $2, s, $2 / s }' "$build/$target.log"
    # An artifact fails the run even where the exit status did not (-fork
    # and -jobs modes, a later input's exit).
    if ls "$build/$target"-crash-* "$build/$target"-leak-* "$build/$target"-timeout-* \
        "$build/$target"-oom-* 2>/dev/null; then
        echo "fuzz_$target: the inputs above failed; add them to tests/data/fuzz-regressions/$target"
        clean=no
    fi
    [ "$clean" = no ] || rm "$build/$target.failed"
}
targets=${FUZZ_TARGETS:-size logs profile facts runs appfile path check tune launch conf ncclconf judge}
rm -f "$build"/*.failed "$build"/*-crash-* "$build"/*-leak-* "$build"/*-timeout-* "$build"/*-oom-*
for target in $targets; do
    throttle
    fuzz "$target" >"$build/$target.report" 2>&1 &
done
wait
status=0
for target in $targets; do
    cat "$build/$target.report"
    [ -e "$build/$target.failed" ] && status=1
done
exit $status
