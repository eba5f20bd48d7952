#!/bin/sh
# Inside a clean Debian root that has only rdmarun's packages (and Open MPI,
# the launcher): the installed files alone give a job, a health check, the
# drop-in wrappers and the Slurm plugin. Prints "ok - WHAT" or
# "not ok - WHAT" per check (tests/packages/packages.sh numbers them).
#   installed.sh VERSION MPI_PROGRAM
version=$1 hello=$2
out=/tmp/installed.out
# t WHAT COMMAND...: a check that COMMAND succeeds; its output when not.
t() {
    what=$1
    shift
    if "$@" >$out 2>&1; then echo "ok - $what"; else
        echo "not ok - $what"; sed 's/^/#   /' $out | head -30; fi
}
has() { grep -q -- "$2" "$1"; }

t "rdmarun --version is $version" sh -c "rdmarun --version | grep -qx 'rdmarun $version'"
t "every file dpkg lists for rdmarun is there" sh -c \
    'dpkg -L rdmarun rdmarun-slurm | grep . | while read -r f; do [ -e "$f" ] || { echo "missing $f"; exit 1; }; done'
# (as many as the package ships: its own file list counts them)
t "the shipped profiles come from /usr/share/rdmarun/profiles" sh -c \
    'rdmarun profiles -v >/tmp/p && n=$(dpkg -L rdmarun | grep -c "^/usr/share/rdmarun/profiles/[a-z-]*\.ini$") &&
     [ "$n" -ge 11 ] && [ "$(grep -c " /usr/share/rdmarun/profiles/[a-z-]*\.ini$" /tmp/p)" = "$n" ] ||
     { cat /tmp/p; echo "the package ships $n"; exit 1; }'

# A 2-rank Open MPI job, with the verdict (no RDMA in a root: shared memory).
t "a 2-rank job runs through the installed rdmarun" sh -c \
    "rdmarun --allow-run-as-root -np 2 $hello >/tmp/job 2>&1; s=\$?; cat /tmp/job; [ \$s = 0 ] &&
     grep -q 'rank 0 of 2' /tmp/job && grep -q 'rank 1 of 2' /tmp/job &&
     grep -q '^rdmarun: profile auto' /tmp/job && grep -q '^rdmarun: local only: 2 processes' /tmp/job"

# The health check with the shipped configuration, a conffile in /etc.
t "/etc/rdmarun/check.ini is a conffile" sh -c "dpkg-query -W -f='\${Conffiles}' rdmarun | grep -q ' /etc/rdmarun/check.ini '"
t "rdmarun check reads /etc/rdmarun/check.ini (no RDMA device here: 69)" sh -c \
    "rdmarun check >/tmp/chk 2>&1; s=\$?; cat /tmp/chk; [ \$s = 69 ] &&
     grep -q 'check devices FAILED: RDMARUN-NO-DEVICE: no RDMA device' /tmp/chk && grep -q '(/etc/rdmarun/check.ini)' /tmp/chk"

# The drop-in wrappers: Open MPI's own answers, and a job through rdmarun.
w=/usr/libexec/rdmarun/wrappers
export w
t "the wrapper's mpirun --version is Open MPI's" sh -c "[ \"\$($w/mpirun --version)\" = \"\$(/usr/bin/mpirun --version)\" ]"
t "mpiexec --version through the wrapper is Open MPI's" sh -c "[ \"\$($w/mpiexec --version)\" = \"\$(/usr/bin/mpiexec --version)\" ]"
t "an unchanged job script's mpirun runs through rdmarun" sh -c \
    "PATH=$w:\$PATH mpirun --allow-run-as-root -np 2 $hello >/tmp/w 2>&1; s=\$?; cat /tmp/w; [ \$s = 0 ] &&
     grep -q '^rdmarun: local only' /tmp/w"

# Paths written for this installation.
t "man pages name /etc and /usr/share, not /usr/local's or a placeholder" sh -c \
    'zcat /usr/share/man/man*/rdmarun*.gz >/tmp/man &&
     grep -q /etc/rdmarun/check.ini /tmp/man && grep -q /usr/share/rdmarun/profiles /tmp/man &&
     ! grep -nE "/usr/local/(etc|share|lib|libexec|var)|@[a-z]*dir@" /tmp/man'
t "the Slurm check script runs /usr/bin/rdmarun with /etc/rdmarun/check.ini" sh -c \
    'f=/usr/libexec/rdmarun/wrappers/slurm/check.sh; grep -q "exec /usr/bin/rdmarun check --drain" $f &&
     grep -q "/etc/rdmarun/check.ini" $f && grep -q "^Prolog=$w/slurm/check.sh" /usr/share/rdmarun/slurm/slurm.conf'
t "the modulefiles name /usr/bin's rdmarun and the wrappers" sh -c \
    "grep -q 'prepend-path PATH /usr/bin' /usr/share/rdmarun/modulefiles/rdmarun/$version &&
     grep -q 'prepend-path PATH $w' /usr/share/rdmarun/modulefiles/rdmarun-dropin/$version"
t "bash completion is registered for rdmarun" bash -c \
    '. /usr/share/bash-completion/completions/rdmarun && complete -p rdmarun | grep -q _rdmarun'

# The SPANK plugin loads in this Slurm's srun through the shipped snippet.
mkdir -p /tmp/slurm
printf '%s\n' ClusterName=pkgtest SlurmctldHost=localhost \
    PlugStackConfig=/usr/share/rdmarun/slurm/plugstack.conf NodeName=localhost \
    'PartitionName=debug Nodes=ALL' >/tmp/slurm/slurm.conf
t "srun loads the SPANK plugin from the shipped plugstack.conf (--rdma-profile)" sh -c \
    'SLURM_CONF=/tmp/slurm/slurm.conf srun --help 2>&1 | grep -q -- "--rdma-profile=NAME"'
t "rdmarun-slurm depends on this Slurm's release" sh -c \
    "r=\$(dpkg-query -W -f='\${Version}' slurm-client | cut -d. -f1-2);
     dpkg-query -W -f='\${Depends}' rdmarun-slurm | grep -q \"slurm-client (>= \$r~)\""

# Removal: purging leaves none of rdmarun's files.
t "purging both packages leaves no rdmarun file" sh -c \
    'dpkg --purge rdmarun-slurm rdmarun >/dev/null && ! ls -d /etc/rdmarun /usr/share/rdmarun /usr/libexec/rdmarun \
     /usr/bin/rdmarun /usr/lib/*/rdmarun 2>/dev/null | grep .'
