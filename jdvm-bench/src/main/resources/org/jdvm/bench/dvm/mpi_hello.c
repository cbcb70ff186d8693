/*
 * mpi_hello.c - the program of jdvm bench's MPI launch measures (docs/cli.md "jdvm bench"):
 * MPI_Init, rank and size, a barrier, MPI_Finalize. Compiled at bench time once per MPI family
 * (mpicc.mpich, mpicc.openmpi). Every rank prints "OK mpi_hello rank=R size=N" after the barrier
 * and exits 0; the bench checks that each of the N ranks said so.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("OK mpi_hello rank=%d size=%d\n", rank, size);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
