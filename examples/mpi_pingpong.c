/* MPI ping-pong between ranks 0 and 1: one line per message size with the
 * one-way latency and the bandwidth, then an allreduce and a broadcast of the
 * same sizes over all ranks, in a form `rdmarun compare --metric` regexes can
 * read:
 *   pingpong size=1048576 iters=50 latency_us=812.40 bandwidth_MBps=1290.71
 *   allreduce size=1048576 ranks=4 iters=50 time_us=2210.52
 *   bcast size=1048576 ranks=4 iters=50 time_us=1190.03
 * Usage: mpi_pingpong [ITERS [SIZE...]] (default: 100 iterations, 8 B and 1 MiB).
 * Every message is checked, so a broken transport cannot pass silently.
 * Build: mpicc -O2 -o mpi_pingpong mpi_pingpong.c */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pingpong(int rank, long size, int iters, double *seconds)
{
    char *buf = malloc(size ? (size_t)size : 1);
    int bad = 0;
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        char want = (char)('a' + i % 26);
        if (rank == 0) {
            memset(buf, want, (size_t)size);
            MPI_Send(buf, (int)size, MPI_CHAR, 1, i, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)size, MPI_CHAR, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, (int)size, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)size, MPI_CHAR, 0, i, MPI_COMM_WORLD);
        }
        if (rank <= 1 && size > 0 && (buf[0] != want || buf[size - 1] != want))
            bad = 1;
    }
    *seconds = MPI_Wtime() - t0;
    free(buf);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "mpi_pingpong needs at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    int iters = argc > 1 ? atoi(argv[1]) : 100;
    long default_sizes[] = {8, 1048576};
    int nsizes = argc > 2 ? argc - 2 : 2;
    int errors = 0;
    for (int k = 0; k < nsizes; k++) {
        long size = argc > 2 ? atol(argv[k + 2]) : default_sizes[k];
        double t;
        errors += pingpong(rank, size, iters, &t);
        if (rank == 0)
            printf("pingpong size=%ld iters=%d latency_us=%.2f bandwidth_MBps=%.2f\n", size,
                   iters, t / iters / 2 * 1e6, size * 2.0 * iters / t / 1e6);
    }
    /* Allreduce of doubles over every rank, the same sizes. */
    for (int k = 0; k < nsizes; k++) {
        long size = argc > 2 ? atol(argv[k + 2]) : default_sizes[k];
        int count = (int)(size / (long)sizeof(double));
        count = count > 0 ? count : 1;
        double *in = malloc((size_t)count * sizeof(double)), *out = malloc((size_t)count * sizeof(double));
        if (!in || !out)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (int i = 0; i < count; i++)
            in[i] = rank + 1;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        /* Every element is 1 + 2 + ... + nranks. */
        if (out[0] != nranks * (nranks + 1) / 2.0 || out[count - 1] != out[0])
            errors++;
        if (rank == 0)
            printf("allreduce size=%ld ranks=%d iters=%d time_us=%.2f\n",
                   (long)count * (long)sizeof(double), nranks, iters, t / iters * 1e6);
        free(in);
        free(out);
    }
    /* Broadcast of bytes from rank 0, the same sizes. */
    for (int k = 0; k < nsizes; k++) {
        long size = argc > 2 ? atol(argv[k + 2]) : default_sizes[k];
        size = size > 0 ? size : 1;
        unsigned char *buf = malloc((size_t)size);
        if (!buf)
            MPI_Abort(MPI_COMM_WORLD, 2);
        memset(buf, 0, (size_t)size);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            /* Both ends marked each time (not the whole buffer: that would
             * be timed too), so a stale message is seen. */
            buf[0] = buf[size - 1] = rank == 0 ? (unsigned char)(i + 1) : 0;
            MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
            if (buf[0] != (unsigned char)(i + 1) || buf[size - 1] != buf[0])
                errors++;
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0)
            printf("bcast size=%ld ranks=%d iters=%d time_us=%.2f\n", size, nranks, iters,
                   t / iters * 1e6);
        free(buf);
    }
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("pingpong: %d corrupted messages\n", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
