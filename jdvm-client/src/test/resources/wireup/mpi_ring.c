/*
 * mpi_ring.c - a token goes once around the ring 0 -> 1 -> ... -> N-1 -> 0 with point-to-point
 * sends; each rank adds its rank. Every rank checks what it received from its left neighbour
 * (the sum of the ranks before it; rank 0 gets the total N(N-1)/2) and prints
 * "OK mpi_ring rank=R size=N got=G" (or FAIL ...); exit 0 only if it matched.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, ok;
    long token = 0, expected;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    if (size == 1) {
        token = 0;
    } else if (rank == 0) {
        MPI_Send(&token, 1, MPI_LONG, right, 7, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_LONG, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long next = token + rank;
        MPI_Send(&next, 1, MPI_LONG, right, 7, MPI_COMM_WORLD);
    }
    expected = rank == 0 ? (long) size * (size - 1) / 2 : (long) rank * (rank - 1) / 2;
    ok = token == expected;
    printf("%s mpi_ring rank=%d size=%d got=%ld from=%d\n", ok ? "OK" : "FAIL", rank, size, token,
           left);
    fflush(stdout);
    MPI_Finalize();
    return ok ? 0 : 1;
}
