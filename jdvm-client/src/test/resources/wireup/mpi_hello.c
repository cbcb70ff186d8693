/*
 * mpi_hello.c - MPI_Init, rank and size, a barrier, MPI_Finalize (issue 10, "Tests that prove it").
 * Every rank prints "OK mpi_hello rank=R size=N host=H" after the barrier; exit 0.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("OK mpi_hello rank=%d size=%d host=%s\n", rank, size, host);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
