#!/bin/bash
# Hostile cases (issue 47): what --resume reads back, and what a run's
# output and the user's --metric can make rdmarun do. A journal line is
# taken only whole, in range and in order, and only by the tune it belongs
# to; anything else stops the resume with its line named, before any run.
# A --metric with a backreference is refused; a figure far into a long line
# is read whole.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
cd "$TMP" || exit 1

cat >bench <<'SH'
#!/bin/sh
# LONG: that many bytes before the figure, on its line
[ -n "$LONG" ] && printf "%${LONG}s" "" | tr ' ' x
echo "time_us=${FIGURE:-100}"
SH
chmod +x bench
printf '[tune]\ndefaults = no\n[ucx]\nRNDV_THRESH = 1K | 64K\n' >space.ini
TUNE=(tune -p shm --launcher exec --verify off --space "$TMP/space.ini"
      --metric 'time_us=([0-9.]+)' --budget 3 --no-validate)

run "$RDMARUN" "${TUNE[@]}" -o "$TMP/t" -- "$TMP/bench"
check "a tune to tamper with" 0 "the budget ended the search after 3 runs"
[ "$(grep -c . t/samples.tsv)" = 5 ]; ok $? "its journal: header, identity, 3 samples"

# resumed DIR LINE WHY: tune --resume of a copy of t/ whose samples.tsv is
# changed by the sed script, refused (65) with LINE and WHY, no run added.
tampered() {
    rm -rf "$TMP/x" && cp -a "$TMP/t" "$TMP/x"
    sed -i "$1" "$TMP/x/samples.tsv"
    cp "$TMP/x/samples.tsv" "$TMP/x.before"
    run "$RDMARUN" tune --resume "$TMP/x"
    check "samples.tsv $4: refused, 65, line $2 named" 65 "samples.tsv:$2: $3"
    cmp -s "$TMP/x/samples.tsv" "$TMP/x.before" && [ ! -e "$TMP/x/runs/0003.out" ]
    ok $? "samples.tsv $4: nothing run, nothing recorded"
}
tampered '4i garbage' 4 "fewer than 7 tab-separated fields" "with a garbage line in the middle"
tampered '5s/^2\t/-7\t/' 5 "a sample that is not a whole number" "with a sample numbered -7"
tampered '5s/^2\t/999999\t/' 5 "out of order" "whose last sample claims 999999"
tampered '5s/\t[0-9.]*$/\t1e308/' 5 "a bin without a figure within" "with a figure of 1e308"
tampered '5s/\t[0-9.]*$/\t-1e308/' 5 "a bin without a figure within" "with a figure of -1e308"
tampered '4s/^\([^\t]*\t[^\t]*\t\)0/\1300/' 4 "a status that is not" "with status 300"
tampered '2s/[0-9a-f]$/x/' 2 "recorded by another tune" "with another tune's identity"
tampered '2d' 2 "no identity line" "without an identity (an older journal)"

# The settings edited to another base: the samples are the old base's.
rm -rf x && cp -a t x
sed -i 's/^base=shm$/base=tcp/' x/tune.conf
run "$RDMARUN" tune --resume "$TMP/x"
check "tune.conf edited to another base profile: refused, 65" 65 "samples.tsv:2: recorded by another tune"
# The base profile's own content changed: its samples are not this one's.
mkdir prof && printf '[profile]\ninherit = shm\n' >prof/base.ini
run "$RDMARUN" tune -p "$TMP/prof/base.ini" --launcher exec --verify off --space "$TMP/space.ini" \
    --metric 'time_us=([0-9.]+)' --budget 2 --no-validate -o "$TMP/pb" -- "$TMP/bench"
check "a tune of a profile file" 0 "the budget ended"
printf '[ucx]\nRNDV_THRESH = 8K\n' >>prof/base.ini
run "$RDMARUN" tune --resume "$TMP/pb"
check "its base profile changed since: refused, 65" 65 "recorded by another tune"

# compare's runs.csv.
run "$RDMARUN" compare -p shm --np 1 --repeat 2 --warmup 0 -o "$TMP/c" $MPIRUN_ROOT -- "$HELLO"
check "a comparison to tamper with" 0 "baseline: shm"
cmp_tampered() {
    rm -rf "$TMP/y" && cp -a "$TMP/c" "$TMP/y"
    sed -i "$1" "$TMP/y/runs.csv"
    cp "$TMP/y/runs.csv" "$TMP/y.before"
    run "$RDMARUN" compare --resume "$TMP/y"
    check "runs.csv $4: refused, 65, line $2 named" 65 "runs.csv:$2: $3"
    cmp -s "$TMP/y/runs.csv" "$TMP/y.before"; ok $? "runs.csv $4: nothing recorded"
}
cmp_tampered '$s/^1,/999999,/' 3 "out of order" "whose last run claims 999999 of 2"
cmp_tampered '$s/^1,/-7,/' 3 "a run or round that is not a whole number" "with run -7"
cmp_tampered '$s/,,1,$/,1e308,1,/' 3 "a metric that is not a number within" "with a metric of 1e308"
cmp_tampered '$s/^1,[0-9]*,measure,shm,1,/1,1,measure,shm,5,/' 3 \
    "not the run compare.conf puts there" "with a run of 5 ranks where 1 belongs"
cmp_tampered '2a garbage' 3 "not 12 comma-separated fields" "with a garbage line in the middle"
echo '2,2,measure,shm,1,0.5,0,local,local,,1' >>"$TMP/c/runs.csv"
run "$RDMARUN" compare --resume "$TMP/c"
check "runs.csv with a run past the last: refused, 65" 65 "runs.csv:4: a run past the last of this comparison"

# --metric: a backreference is refused before any run; the figure far into
# a long line is read whole; a line past the cap is said to be cut.
run "$RDMARUN" tune -p shm --launcher exec --verify off --space "$TMP/space.ini" \
    --metric '(a*)*\1time_us=([0-9]+)' -o "$TMP/br" -- "$TMP/bench"
check "tune --metric with a backreference: refused, 64" 64 "refers back to a group (\\1 at offset 5)"
[ ! -e br ]; ok $? "and no folder is made"
run "$RDMARUN" compare -p shm --np 1 --metric '(x)\1' -o "$TMP/br2" -- "$HELLO"
check "compare --metric with one: refused, 64" 64 "refers back to a group"
run "$RDMARUN" compare -p shm --np 1 --metric 'of[\1 ]+([0-9]+)' -o "$TMP/br3" $MPIRUN_ROOT -- "$HELLO"
check "a \\1 inside a bracket expression is no backreference" 0 "baseline: shm"
run env LONG=5000 FIGURE=10.5 "$RDMARUN" "${TUNE[@]}" -o "$TMP/long" -- "$TMP/bench"
check "a figure after 5000 bytes of its line" 0 "the budget ended"
[ "$(awk -F'\t' 'NR == 3 {print $9}' long/samples.tsv)" = 10.5 ]
ok $? "is read whole: 10.5, not 10 ($(awk -F'\t' 'NR == 3 {print $9}' long/samples.tsv))"
run env LONG=$((2 * 1024 * 1024)) "$RDMARUN" "${TUNE[@]}" -o "$TMP/huge" -- "$TMP/bench"
check "a line past 1 MiB: said to be cut, its figure not read" 65 \
    "a line longer than 1048576 bytes: the metric is read in its first 1048576 bytes only"
done_testing
