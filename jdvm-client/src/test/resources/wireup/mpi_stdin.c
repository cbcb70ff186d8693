/*
 * mpi_stdin.c - rank 0 reads its stdin to end of file (the launcher forwards its own stdin to
 * rank 0, mpirun's default) and broadcasts the byte count and a checksum (sum of the bytes) to
 * every rank. Every rank prints "OK mpi_stdin rank=R size=N bytes=B sum=S"; the checker compares
 * B and S with the input it fed. Exit 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    long counts[2] = {0, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        unsigned char buf[4096];
        ssize_t n;
        while ((n = read(0, buf, sizeof buf)) > 0) {
            counts[0] += n;
            for (ssize_t i = 0; i < n; i++) {
                counts[1] += buf[i];
            }
        }
    }
    MPI_Bcast(counts, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    printf("OK mpi_stdin rank=%d size=%d bytes=%ld sum=%ld\n", rank, size, counts[0], counts[1]);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
