#!/bin/bash
# bash completion (completions/rdmarun) with bash-completion's own library:
# options and their values as this rdmarun's --help lists them, profile names
# from 'rdmarun profiles', subcommands, and the program's completion after
# PROGRAM.
. "$RDMARUN_SRCDIR/tests/lib.sh"
BC=/usr/share/bash-completion/bash_completion
if [ ! -r "$BC" ]; then
    skip "bash completion" "bash-completion is not installed"
    done_testing
    exit
fi
# shellcheck disable=SC1090
. "$BC"
. "$SRC/completions/rdmarun"
cp "$RDMARUN" "$TMP/rdmarun" 2>/dev/null || true
mkdir -p "$TMP/topo" && : >"$TMP/topo/lassen.xml" && : >"$TMP/topo/notes.txt"

# complete LINE: what completing LINE offers, one per line.
complete_line() {
    COMP_LINE=$1 COMP_POINT=${#1}
    read -ra COMP_WORDS <<<"$1"
    [[ $1 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _rdmarun
    printf '%s\n' "${COMPREPLY[@]}" | sort -u
}
# offers DESCRIPTION LINE WORD...: completing LINE offers exactly these words.
offers() {
    local desc=$1 line=$2 got want
    shift 2
    got=$(complete_line "$line")
    want=$(printf '%s\n' "$@" | sort -u)
    [ "$got" = "$want" ] || { echo "# offered: $(echo $got)"; echo "# wanted: $(echo $want)"; }
    ok $([ "$got" = "$want" ]; echo $?) "$desc"
}
R=$RDMARUN

offers "an option's name" "$R --bind-" --bind-policy
offers "bind-policy's values" "$R --bind-policy " none numa nic-local gpu-local
offers "verify's values" "$R --verify s" strict
offers "launcher's values" "$R --launcher " mpirun srun exec hydra flux pals
offers "mpi's values" "$R --mpi " openmpi mpich impi
offers "expect's values" "$R verify --expect " rdma tcp local any efa cxi opx gpudirect-tcp
offers "threads: auto" "$R --threads a" auto
offers "a profile by name" "$R -p r" roce
offers "a profile by name, long option" "$R --profile pv" pvrdma
offers "compare's profile list, the last element" "$R compare -p roce,t" roce,tcp roce,tcpx
mkdir -p "$TMP/bin" && printf '#!/bin/sh\n' >"$TMP/bin/profile-job" && chmod +x "$TMP/bin/profile-job"
PATH=$TMP/bin offers "subcommands, and programs on PATH" "$R pro" profiles probe profile-job
offers "profiles show NAME" "$R profiles show n" nccl-ib
mkdir -p "$TMP/withbroken"
printf '[profile]\nfabric = warp\n' >"$TMP/withbroken/bad.ini"
RDMARUN_PROFILE_PATH=$TMP/withbroken offers "a broken profile is a name, its BROKEN line is not" "$R -p B" 
RDMARUN_PROFILE_PATH=$TMP/withbroken offers "and the broken one is still offered by name" "$R profiles show b" bad
offers "profiles' own word" "$R profiles s" show
offers "--topology takes XML files" "$R --topology $TMP/topo/" "$TMP/topo/lassen.xml"
offers "an option's value is not PROGRAM" "$R --sysfs $TMP/topo --dry" --dry-run
offers "after PROGRAM, the program's words, not rdmarun's" "$R -np 2 true --dry"
offers "after --, the program's words" "$R compare -p roce --np 1 -- true --rep"

offers "threads: the word, never the metavar N" "$R --threads " auto
offers "--color's values" "$R probe --color " auto always never
offers "--help all" "$R --help " all
offers "-h all" "$R -h a" all
offers "a subcommand's options only: probe" "$R probe --" --json --sysfs --topology --facts --color --help
offers "verify's options" "$R verify --e" --expect
offers "probe takes no --dry-run" "$R probe --dry"
offers "compare's own options" "$R compare --hi" --higher-is-better
offers "the helper's options under rank" "$R rank --ke" --keep-cpus
offers "a run has no --expect" "$R --exp"
PATH=$TMP/bin offers "the version command" "$R vers" version
PATH=$TMP/bin offers "the help command" "$R hel" help
offers "help: a command's name, or all" "$R help c" check compare
offers "help all" "$R help a" all

# --set: SECTION.KEY= from the installed tables (profiles --keys), never a hand list.
offers "--set: a profile section's keys" "$R --set bind.sm" bind.smt=
offers "--set: the installed UCX's variables" "$R --set ucx.RNDV_THR" ucx.RNDV_THRESH= ucx.RNDV_THRESH_FALLBACK=
got=$(complete_line "$R --set ucx." | sed 's/^ucx\.//; s/=$//' | sort -u)
want=$(ucx_info -c 2>/dev/null | sed -n 's/^UCX_\([A-Z0-9_]*\)=.*/\1/p' | sort -u)
missing=$(comm -13 <(echo "$got") <(echo "$want"))
[ -n "$want" ] && [ -z "$missing" ]; ok $? "--set ucx.: every variable 'ucx_info -c' prints ($(echo "$want" | wc -l)) is offered${missing:+ (missing: $(echo $missing | head -c 200))}"
offers "--set after the =: nothing made up" "$R --set bind.smt="

# For each subcommand (and a run), the options offered are those its help
# lists, and nothing else.
for sub in "" profiles probe verify check compare tune report rank path-peer help version; do
    if [ -n "$sub" ]; then
        help_opts=$("$R" $sub --help | sed -n '/^Options:$/,/^$/p')
    else
        help_opts=$("$R" --help all | sed -n '/^Options of a run:$/,/^$/p')
    fi
    help_opts=$(echo "$help_opts" | grep -oE '^  (-[a-zA-Z]+, |    )--[a-z-]+' | grep -oE -- '-[-a-zA-Z]+' | sort -u)
    got=$(complete_line "$R${sub:+ $sub} -")
    [ "$got" = "$help_opts" ] || diff <(echo "$help_opts") <(echo "$got") | sed 's/^/# /'
    ok $([ -n "$got" ] && [ "$got" = "$help_opts" ]; echo $?) \
        "${sub:-a run}: every option of its help, and only those ($(echo "$help_opts" | wc -l))"
done

# zsh: completions/_rdmarun in a real interactive zsh (in a pty, through
# tests/zsh-complete.zsh), rdmarun found on PATH as a user runs it.
if ! command -v zsh >/dev/null || ! zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
    skip "zsh completion" "zsh (with zsh/zpty) is not installed (apt-get install zsh)"
else
    mkdir -p "$TMP/zbin" && ln -sf "$RDMARUN" "$TMP/zbin/rdmarun"
    zcomplete() {
        PATH=$TMP/zbin:$PATH TMPDIR=$TMP timeout "$(scaled 30)" zsh -f "$SRC/tests/zsh-complete.zsh" \
            "$SRC/completions" "$1" 2>&1 | sort -u
    }
    # zoffers DESCRIPTION LINE WORD...: zsh offers exactly these words.
    zoffers() {
        local desc=$1 line=$2 got want
        shift 2
        got=$(zcomplete "$line")
        want=$(printf '%s\n' "$@" | sort -u)
        [ "$got" = "$want" ] || { echo "# offered: $(echo $got | head -c 300)"; echo "# wanted: $(echo $want)"; }
        ok $([ "$got" = "$want" ]; echo $?) "zsh: $desc"
    }
    # zincludes DESCRIPTION LINE WORD...: among what zsh offers.
    zincludes() {
        local desc=$1 line=$2 got w bad=0
        shift 2
        got=$(zcomplete "$line")
        for w in "$@"; do printf '%s\n' "$got" | grep -qxF -- "$w" || { echo "# not offered: $w"; bad=1; }; done
        ok $bad "zsh: $desc"
    }
    zoffers "probe's options only" "rdmarun probe --" --json --sysfs --topology --facts --color --help
    zoffers "verify's --expect values" "rdmarun verify --expect " rdma tcp local any efa cxi opx gpudirect-tcp
    zoffers "threads: the word, never the metavar N" "rdmarun --threads " auto
    zoffers "bind-policy's values" "rdmarun --bind-policy " none numa nic-local gpu-local
    zoffers "--set: SECTION.KEY= from profiles --keys" "rdmarun --set bind.sm" bind.smt=
    zoffers "--set: the installed UCX's variables" "rdmarun --set ucx.RNDV_TH" ucx.RNDV_THRESH= ucx.RNDV_THRESH_FALLBACK=
    zoffers "profiles show NAME" "rdmarun profiles show n" nccl-ib
    zoffers "compare's profile list" "rdmarun compare -p roce,t" roce,tcp roce,tcpx
    zoffers "the helper's options under rank" "rdmarun rank --ke" --keep-cpus
    zoffers "--help all" "rdmarun --help " all
    zoffers "help: a command's name" "rdmarun help c" check compare
    zincludes "subcommands and programs" "rdmarun pro" probe profiles
    zincludes "a profile by name" "rdmarun -p r" roce
    zoffers "after --, the program's completion" "rdmarun compare -p roce --np 1 -- tru" true truncate
    # Every subcommand: what zsh offers after -- is what its help lists.
    for sub in "" profiles probe verify check compare tune report rank path-peer help version; do
        if [ -n "$sub" ]; then
            want=$("$R" $sub --help | sed -n '/^Options:$/,/^$/p')
        else
            want=$("$R" --help all | sed -n '/^Options of a run:$/,/^$/p')
        fi
        want=$(echo "$want" | grep -oE '^  (-[a-zA-Z]+, |    )--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u)
        got=$(zcomplete "rdmarun${sub:+ $sub} --")
        [ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | sed 's/^/# /'
        ok $([ -n "$got" ] && [ "$got" = "$want" ]; echo $?) "zsh: ${sub:-a run}: the long options of its help ($(echo "$want" | wc -l))"
    done
fi
done_testing
