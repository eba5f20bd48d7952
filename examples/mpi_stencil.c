/* A small strong-scaling kernel: 2D Jacobi heat diffusion on a fixed global
 * grid, split into row blocks, with a halo exchange with both neighbours
 * every iteration and a residual allreduce every 10 (the communication
 * pattern of structured-grid CFD codes). Rank 0 prints one line that
 * `rdmarun compare --metric` can read:
 *   stencil ranks=4 grid=1024x1024 iters=200 time_s=0.812 time_per_iter_us=4060.1 residual=...
 * Usage: mpi_stencil [N [ITERS]] (default 1024 x 1024, 200 iterations).
 * Build: mpicc -O2 -o mpi_stencil mpi_stencil.c -lm */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1024, iters = argc > 2 ? atoi(argv[2]) : 200;
    if (n < size || n < 3 || iters < 1) {
        if (rank == 0)
            fprintf(stderr, "mpi_stencil: need N >= ranks, N >= 3, ITERS >= 1\n");
        MPI_Finalize();
        return 2;
    }
    /* Rows [first, first + rows) of the grid, plus one halo row each side. */
    int rows = n / size + (rank < n % size), first = rank * (n / size) + (rank < n % size ? rank : n % size);
    size_t stride = (size_t)n;
    double *u = calloc((size_t)(rows + 2) * stride, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * stride, sizeof(double));
    if (!u || !v)
        MPI_Abort(MPI_COMM_WORLD, 3);
    /* Hot top edge of the global grid. */
    if (first == 0)
        for (int j = 0; j < n; j++)
            u[stride + j] = v[stride + j] = 100.0;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double residual = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        MPI_Sendrecv(&u[stride], n, MPI_DOUBLE, up, 0, &u[(size_t)(rows + 1) * stride], n,
                     MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[(size_t)rows * stride], n, MPI_DOUBLE, down, 1, &u[0], n, MPI_DOUBLE, up,
                     1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double local = 0;
        for (int i = 1; i <= rows; i++) {
            int g = first + i - 1;
            if (g == 0 || g == n - 1)
                continue;   /* fixed boundary rows */
            for (int j = 1; j < n - 1; j++) {
                size_t k = (size_t)i * stride + (size_t)j;
                v[k] = 0.25 * (u[k - 1] + u[k + 1] + u[k - stride] + u[k + stride]);
                local += (v[k] - u[k]) * (v[k] - u[k]);
            }
        }
        double *t = u;
        u = v;
        v = t;
        if (it % 10 == 9 || it == iters - 1)
            MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double elapsed = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("stencil ranks=%d grid=%dx%d iters=%d time_s=%.6f time_per_iter_us=%.3f "
               "residual=%.6e\n", size, n, n, iters, slowest, slowest / iters * 1e6,
               sqrt(residual));
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
