#!/bin/sh
# An example job script: rdmarun in place of mpirun. The profile is chosen for
# the node (auto); rdmarun prints what it set on stderr before the job starts.
#SBATCH --nodes=1 --ntasks=2
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# See first what would run:
rdmarun --dry-run -np 2 "$here/mpi_hello"
# Then run it. Add --allow-run-as-root only where jobs run as root (containers, CI).
rdmarun ${RDMARUN_EXTRA_ARGS:-} -np 2 "$here/mpi_hello"
