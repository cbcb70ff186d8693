/*
 * mpi_names.c - MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name across the ranks of one
 * job. Rank 0 publishes the service "jdvm-names-<size>" with the port "port-of-rank-0"; after a
 * barrier every other rank looks it up and checks the port; after another barrier rank 0
 * unpublishes it, and after a third every rank's lookup must fail (errors returned, not fatal).
 * Every rank prints "OK mpi_names rank=R size=N port=P gone=1" (or FAIL ...); exit 0 only if all
 * matched. Built with either family's mpicc: MPICH answers through simple PMI, Open MPI through
 * PMIx_Publish/PMIx_Lookup.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, ok = 1, gone;
    char service[64], port[MPI_MAX_PORT_NAME] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    snprintf(service, sizeof service, "jdvm-names-%d", size);
    if (rank == 0) {
        strcpy(port, "port-of-rank-0");
        ok = MPI_Publish_name(service, MPI_INFO_NULL, port) == MPI_SUCCESS;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) {
        ok = MPI_Lookup_name(service, MPI_INFO_NULL, port) == MPI_SUCCESS
            && strcmp(port, "port-of-rank-0") == 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        ok = ok && MPI_Unpublish_name(service, MPI_INFO_NULL, port) == MPI_SUCCESS;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    char again[MPI_MAX_PORT_NAME] = "";
    gone = MPI_Lookup_name(service, MPI_INFO_NULL, again) != MPI_SUCCESS;
    ok = ok && gone;
    printf("%s mpi_names rank=%d size=%d port=%s gone=%d\n", ok ? "OK" : "FAIL", rank, size, port,
           gone);
    fflush(stdout);
    MPI_Finalize();
    return ok ? 0 : 1;
}
