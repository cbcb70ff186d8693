/*
 * mpi_allreduce.c - MPI_Allreduce of rank+1 over MPI_COMM_WORLD; every rank checks the sum is
 * N(N+1)/2. Prints "OK mpi_allreduce rank=R size=N sum=S" (or FAIL ...); exit 0 only if it matched.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    long mine, sum = 0, expected;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    expected = (long) size * (size + 1) / 2;
    printf("%s mpi_allreduce rank=%d size=%d sum=%ld\n", sum == expected ? "OK" : "FAIL", rank, size,
           sum);
    fflush(stdout);
    MPI_Finalize();
    return sum == expected ? 0 : 1;
}
