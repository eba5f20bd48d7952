#!/bin/sh
# Every input in tests/data/fuzz-regressions goes through the rdmarun command
# that reads that kind of input: none may crash (a signal, a sanitizer
# report) and each gets an ordinary status.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
REG=$DATA/fuzz-regressions
crashed() { [ "$rc" -ge 128 ] || has "$err" "Sanitizer" || has "$err" "runtime error"; }
# Every folder holds inputs: an empty one would make its loop below pass untested.
for d in logs profile facts runs tune; do
    [ -n "$(ls "$REG/$d" 2>/dev/null)" ]; ok $? "fuzz-regressions/$d holds inputs"
done
for f in "$REG"/logs/*; do
    run "$RDMARUN" verify "$f"
    ! crashed; ok $? "verify $(basename "$f"): status $rc, no crash"
done
run "$RDMARUN" verify "$REG/logs/endless-line.log"
check "the evidence after an endless line is still read" 80 "FALLBACK"
for f in "$REG"/profile/*; do
    run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/none" -p "$f" ./app
    ! crashed && [ "$rc" = 78 ]; ok $? "profile $(basename "$f"): refused with 78, no crash"
done
run "$RDMARUN" probe --facts "$REG/facts/state-not-utf8.json"
check "facts that are not UTF-8 (saved again they would differ): refused, 65" 65 "not UTF-8 text"
for f in "$REG"/facts/*; do
    run "$RDMARUN" probe --facts "$f"
    ! crashed; ok $? "probe --facts $(basename "$f"): status $rc, no crash"
    run "$RDMARUN" --dry-run --facts "$f" --bind-policy numa -N 4 --report ./app
    ! crashed; ok $? "a placement from $(basename "$f"): status $rc, no crash"
done
for f in "$REG"/runs/*; do
    d=$TMP/cmp-$(basename "$f")
    mkdir -p "$d"
    printf 'rdmarun-results compare\n' >"$d/.rdmarun-results"   # as compare -o made it
    printf 'profile=shm\nnp=1\nnp=2\nrepeat=1\nwarmup=0\nbaseline=shm\nprogram=/bin/true\n' >"$d/compare.conf"
    cp "$f" "$d/runs.csv"
    # Only the reading matters here: every run it lists is already recorded.
    run "$RDMARUN" compare --resume "$d"
    ! crashed; ok $? "compare --resume with $(basename "$f"): status $rc, no crash"
    printf '%s\n' "$out$err" >"$d.out"
done
# tune: the first byte picks the reader (tests/fuzz/fuzz_tune.c): 0 (modulo
# 4), the journal a --resume replays; otherwise a --space file.
for f in "$REG"/tune/*; do
    d=$TMP/tune-$(basename "$f")
    mkdir -p "$d"
    printf 'rdmarun-results tune\n' >"$d/.rdmarun-results"   # as tune -o made it
    tail -c +2 "$f" >"$d/input"
    if [ $(($(od -An -tu1 -N1 "$f") % 4)) = 0 ]; then
        printf 'base=shm\nbudget_runs=3\nbudget_s=0\nbetter=lower\narg=--launcher\narg=exec\narg=--verify\narg=off\nprogram=/bin/true\nkey=ucx.RNDV_THRESH\nfrom=x\nvalue=\nvalue=8K\n' >"$d/tune.conf"
        mv "$d/input" "$d/samples.tsv"
        run "$RDMARUN" tune --resume "$d"
    else
        run "$RDMARUN" tune -p shm --launcher exec --verify off --budget 1 --space "$d/input" \
            -o "$d/out" -- /bin/true
    fi
    ! crashed; ok $? "tune with $(basename "$f"): status $rc, no crash"
done
grep -q "runs.csv:3: longer than any row" "$TMP/cmp-long-line-tail.csv.out"
ok $? "an over-long runs.csv line stops the resume, named (its tail is never taken for a row)"
done_testing
