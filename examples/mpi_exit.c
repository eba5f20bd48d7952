/* Exits with the status given as its first argument (after MPI_Finalize), or
 * talks to the other ranks and then sleeps for the number of seconds given
 * with "sleep N", or with "crash" talks and then writes through a NULL
 * pointer on rank 0 (the program's own bug): used to check that
 * rdmarun passes exit statuses and signals through, and names a crash.
 * Build: mpicc -o mpi_exit mpi_exit.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 2 && strcmp(argv[1], "sleep") == 0) {
        /* Talk first, so that the transports are chosen (and logged). */
        MPI_Barrier(MPI_COMM_WORLD);
        printf("rank %d pid %d sleeping\n", rank, (int)getpid());
        fflush(stdout);
        sleep((unsigned)atoi(argv[2]));
    }
    if (argc > 1 && strcmp(argv[1], "crash") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);   /* the transports chosen first */
        if (rank == 0) {
            volatile int *nowhere = NULL;
            *nowhere = 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return argc > 1 && strcmp(argv[1], "sleep") != 0 ? atoi(argv[1]) : 0;
}
