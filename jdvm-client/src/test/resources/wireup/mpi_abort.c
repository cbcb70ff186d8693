/*
 * mpi_abort.c - after a barrier the last rank calls MPI_Abort(MPI_COMM_WORLD, 7); the others wait
 * in a second barrier that can never complete. A launcher passes when it ends every rank promptly
 * and itself exits with status 7 (mpirun's behaviour). Lines: "WAITING mpi_abort rank=R" from the
 * waiting ranks, "ABORTING mpi_abort rank=R code=7" from the aborting one. This program never
 * exits 0: success is judged by the launcher's exit status.
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
    if (rank == size - 1) {
        printf("ABORTING mpi_abort rank=%d code=7\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    printf("WAITING mpi_abort rank=%d\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL mpi_abort rank=%d passed the second barrier\n", rank);
    MPI_Finalize();
    return 1;
}
