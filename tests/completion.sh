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
offers "launcher's values" "$R --launcher " mpirun srun exec
offers "expect's values" "$R verify --expect " rdma tcp local any
offers "threads: auto" "$R --threads a" auto
offers "a profile by name" "$R -p r" roce
offers "a profile by name, long option" "$R --profile pv" pvrdma
offers "compare's profile list, the last element" "$R compare -p roce,t" roce,tcp
mkdir -p "$TMP/bin" && printf '#!/bin/sh\n' >"$TMP/bin/profile-job" && chmod +x "$TMP/bin/profile-job"
PATH=$TMP/bin offers "subcommands, and programs on PATH" "$R pro" profiles probe profile-job
offers "profiles show NAME" "$R profiles show n" nccl-ib
offers "profiles' own word" "$R profiles s" show
offers "--topology takes XML files" "$R --topology $TMP/topo/" "$TMP/topo/lassen.xml"
offers "an option's value is not PROGRAM" "$R --sysfs $TMP/topo --dry" --dry-run
offers "after PROGRAM, the program's words, not rdmarun's" "$R -np 2 true --dry"
offers "after --, the program's words" "$R compare -p roce --np 1 -- true --rep"

# Every option --help lists is offered, and nothing else.
help_opts=$("$R" --help | grep -oE '^ +(-[a-zA-Z]+, )?--[a-z-]+' | grep -oE -- '-[-a-zA-Z]+' | sort -u)
got=$(complete_line "$R -" | grep -vxE -- '-V|--version')
[ "$got" = "$help_opts" ] || diff <(echo "$help_opts") <(echo "$got") | sed 's/^/# /'
ok $([ "$got" = "$help_opts" ]; echo $?) "every option of --help, and only those ($(echo "$help_opts" | wc -l))"
done_testing
