#!/bin/sh
# two-hosts.sh PROGRAM ARGS...: run an MPI rank as if the job's ranks were on
# two nodes. Odd ranks run in a UTS namespace of their own with another host
# name, which is how UCX tells nodes apart (ucs_machine_guid hashes the host
# name), so UCX 1.14+ labels their endpoints inter-node, and UCX 1.13 cannot
# use shared memory between them. Real UCX, real sockets; the kernel is this
# one. A job whose UCX_TLS allows shared memory (or is unset) runs as it is:
# the emulated nodes would share no transport it asks for.
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}
case ,${UCX_TLS:-all}, in
*,all,* | *,sm,* | *,shm,* | *,posix,* | *,sysv,* | *,cma,* | *,xpmem,* | *,knem,*) exec "$@" ;;
esac
[ $((rank % 2)) = 1 ] || exec "$@"
as_root=
[ "$(id -u)" = 0 ] || as_root=--map-root-user
exec unshare $as_root --uts sh -c 'hostname "$(hostname)-b" && exec "$@"' sh "$@"
