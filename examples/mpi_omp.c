/* A hybrid MPI + OpenMP rank: every OpenMP thread prints the CPU it runs on
 * (sched_getcpu) and the OpenMP settings it got, so rdmarun's --threads can
 * be checked against what the threads really do.
 * Build: mpicc -fopenmp -o mpi_omp mpi_omp.c */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *places = getenv("OMP_PLACES"), *bind = getenv("OMP_PROC_BIND");
#pragma omp parallel
    {
        volatile double x = 0;
        for (int i = 0; i < 20000000; i++)   /* long enough that every thread is up */
            x += i;
#pragma omp critical
        printf("omp rank=%d thread=%d of=%d cpu=%d places=%s bind=%s\n", rank,
               omp_get_thread_num(), omp_get_num_threads(), sched_getcpu(),
               places ? places : "-", bind ? bind : "-");
    }
    MPI_Finalize();
    return 0;
}
