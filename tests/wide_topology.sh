#!/bin/sh
# Placement past glibc's fixed cpu_set_t (1024 CPUs): a synthetic node of
# 2,048 PUs made by hwloc's own lstopo (2 packages, 2 NUMA nodes each, 128
# cores of 4 PUs each). Every rank's PUs, NUMA nodes and core count must
# agree with hwloc-calc on the same file, the ranks must share the node out
# whole without overlap, and PUs above 1023 must be handed out. The helper's
# mask for such PUs is test_launch's (test_cpu_set).
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v lstopo >/dev/null && command -v hwloc-calc >/dev/null ||
    { echo "1..0 # SKIP lstopo or hwloc-calc not installed"; exit 0; }
xml=$TMP/2048.xml
lstopo --input "pack:2 numa:2 core:128 pu:4" --of xml "$xml" 2>/dev/null
[ "$(hwloc-calc -i "$xml" --number-of pu all 2>/dev/null)" = 2048 ]
ok $? "lstopo made a synthetic node of 2048 PUs"
# "0-2,5" -> "0,1,2,5", hwloc-calc's --physical-output form
expand() {
    printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read a b; do
        [ -n "$a" ] && seq "$a" "${b:-$a}"
    done | paste -sd, -
}
for policy in numa nic-local; do
    for n in 1 2 3 4 8 16; do
        what="$policy, $n ranks"
        "$RDMARUN" --dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology "$xml" \
            --bind-policy $policy -N $n --json ./app 2>/dev/null | python3 -c '
import json, sys
p = json.load(sys.stdin).get("placement")
for r in p["ranks"] if p else []:
    print(r["local_rank"], ",".join(map(str, r["numa"] or [])) or "-", r["pus"], r["cores"])
' >"$TMP/ranks"
        [ "$(wc -l <"$TMP/ranks")" = "$n" ]
        ok $? "$what: a placement for every local rank"
        bad= high=0
        : >"$TMP/all"
        while read local numa pus cores; do
            list=$(expand "$pus")
            printf '%s\n' "$list" | tr ',' '\n' >>"$TMP/all"
            loc="pu:$(printf '%s' "$list" | sed 's/,/ pu:/g')"
            # one hwloc-calc for a rank's NUMA nodes and one for its cores
            want_numa=$(hwloc-calc -i "$xml" --physical-input $loc --intersect NUMAnode --physical-output 2>/dev/null)
            want_cores=$(hwloc-calc -i "$xml" --physical-input $loc --number-of core 2>/dev/null)
            [ "$numa" = "$want_numa" ] || bad="$bad rank $local NUMA $numa, hwloc-calc $want_numa;"
            [ "$cores" = "$want_cores" ] || bad="$bad rank $local $cores cores, hwloc-calc $want_cores;"
            [ "${list##*,}" -ge 1024 ] && high=$((high + 1))
        done <"$TMP/ranks"
        [ -z "$bad" ]; ok $? "$what: PUs, NUMA nodes and cores agree with hwloc-calc${bad:+:$bad}"
        [ "$(sort -n "$TMP/all" | uniq -d | wc -l)" = 0 ]; ok $? "$what: no PU given twice"
        # a rank count that does not divide the cores may leave some idle,
        # never more than a rank's share
        given=$(sort -un "$TMP/all" | wc -l)
        [ "$given" -gt $((2048 - 2048 / n)) ]; ok $? "$what: the node handed out ($given PUs)"
        [ $high -ge $(((n + 1) / 2)) ]
        ok $? "$what: ranks on PUs above 1023 ($high of $n)"
    done
done
done_testing
