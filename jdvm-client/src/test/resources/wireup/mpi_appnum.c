/*
 * mpi_appnum.c - one app of an MPMD job (mpirun -n 1 ./a : -n 3 ./b): each rank reads MPI_APPNUM
 * (an attribute of MPI_COMM_WORLD) and does an MPI_Allreduce of rank+1 over MPI_COMM_WORLD, so every
 * app's ranks must be in the one world. Prints "OK mpi_appnum rank=R size=N appnum=A sum=S" (FAIL
 * when the sum is not N(N+1)/2 or there is no MPI_APPNUM); exit 0 only if OK.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, flag = 0, *appnum = NULL;
    long mine, sum = 0, expected;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    expected = (long) size * (size + 1) / 2;
    int ok = sum == expected && flag;
    printf("%s mpi_appnum rank=%d size=%d appnum=%d sum=%ld\n", ok ? "OK" : "FAIL", rank, size,
           flag ? *appnum : -1, sum);
    fflush(stdout);
    MPI_Finalize();
    return ok ? 0 : 1;
}
