/*
 * mpi_spawn.c - MPI_Comm_spawn of children that answer through the intercommunicator.
 * Parent job (any size): spawns NCHILD (argv[1], default 2) copies of itself with the argument
 * "child"; every child sends (child rank + 100) to parent rank 0 over the intercommunicator;
 * parent rank 0 checks the sum and sends each child an acknowledgement; all disconnect.
 * Parent ranks print "OK mpi_spawn parent rank=R size=N children=C sum=S", children print
 * "OK mpi_spawn child rank=R size=C parents=N ack=A"; exit 0 only if everything matched.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int child(void)
{
    MPI_Comm parent;
    int rank, size, psize, ok;
    long mine, ack = -1;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        printf("FAIL mpi_spawn child has no parent\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    mine = rank + 100;
    MPI_Send(&mine, 1, MPI_LONG, 0, 11, parent);
    MPI_Recv(&ack, 1, MPI_LONG, 0, 12, parent, MPI_STATUS_IGNORE);
    ok = ack == rank;
    printf("%s mpi_spawn child rank=%d size=%d parents=%d ack=%ld\n", ok ? "OK" : "FAIL", rank, size,
           psize, ack);
    fflush(stdout);
    MPI_Comm_disconnect(&parent);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        rc = child();
        MPI_Finalize();
        return rc;
    }
    int nchild = argc > 1 ? atoi(argv[1]) : 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *cargv[] = {"child", NULL};
    MPI_Comm inter;
    int errs[64];
    rc = MPI_Comm_spawn(argv[0], cargv, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
    if (rc != MPI_SUCCESS) {
        printf("FAIL mpi_spawn parent rank=%d spawn rc=%d\n", rank, rc);
        MPI_Finalize();
        return 1;
    }
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    long sum = 0, expected = 0;
    if (rank == 0) {
        for (int i = 0; i < remote; i++) {
            long v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_LONG, MPI_ANY_SOURCE, 11, inter, &st);
            sum += v;
            long ack = st.MPI_SOURCE;
            MPI_Send(&ack, 1, MPI_LONG, st.MPI_SOURCE, 12, inter);
        }
        for (int i = 0; i < remote; i++) {
            expected += i + 100;
        }
    }
    MPI_Bcast(&sum, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(&expected, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    int ok = remote == nchild && sum == expected;
    printf("%s mpi_spawn parent rank=%d size=%d children=%d sum=%ld\n", ok ? "OK" : "FAIL", rank,
           size, remote, sum);
    fflush(stdout);
    MPI_Comm_disconnect(&inter);
    MPI_Finalize();
    return ok ? 0 : 1;
}
