#!/bin/zsh -f
# zsh-complete.zsh FPATH_DIR LINE: what zsh's completion offers for LINE (TAB
# at its end), one candidate a line, with completions/_rdmarun loaded from
# FPATH_DIR. A real interactive zsh in a pty (zsh/zpty) runs compinit and the
# completion; compadd is wrapped to print what it is given. After the
# capture script by Valodim (zsh-capture-completion, MIT).
zmodload zsh/zpty || { echo 'zsh/zpty is missing' >&2; exit 2 }
fdir=$1
shift
zpty z zsh -f -i
local line init=${TMPDIR:-/tmp}/zsh-complete.$$
setopt rcquotes
cat >$init <<INIT
PROMPT=
fpath=($fdir \$fpath)
autoload -U compinit
compinit -u -d ${TMPDIR:-/tmp}/zsh-complete-dump.$$
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
null-line () { echo -E - \$'\0' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' list-separator ''
zmodload zsh/zutil
compadd () {
    if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "\$@"
        return \$?
    fi
    typeset -a __hits __dscr __tmp
    if (( \$@[(I)-d] )); then
        __tmp=\${@[\$[\${@[(i)-d]}+1]]}
        if [[ \$__tmp == \(* ]]; then
            eval "__dscr=\$__tmp"
        else
            __dscr=( "\${(@P)__tmp}" )
        fi
    fi
    builtin compadd -A __hits -D __dscr "\$@"
    setopt localoptions norcexpandparam extendedglob
    typeset -A apre hpre hsuf asuf
    zparseopts -E P:=apre p:=hpre S:=asuf s:=hsuf
    [[ -n \$__hits ]] || return
    for i in {1..\$#__hits}; do
        echo -E - \$IPREFIX\$apre\$hpre\$__hits[\$i]\$hsuf\$asuf
    done
}
echo ok
INIT
zpty -w z "source $init"
repeat 4; do
    zpty -r z line
    [[ $line == ok* ]] && break
done
[[ $line == ok* ]] || { echo 'zsh did not start' >&2; rm -f $init; exit 2 }
zpty -w z "$*"$'\t'
integer tog=0
while zpty -r z; do :; done | while IFS= read -r line; do
    if [[ $line == *$'\0\r' ]]; then
        (( tog++ )) && break || continue
    fi
    (( tog )) && echo -E - ${line%$'\r'}
done
rm -f $init ${TMPDIR:-/tmp}/zsh-complete-dump.$$*
