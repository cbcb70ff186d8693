/*
 * pmix_abort.c - what Open MPI's MPI_Abort does through libpmix (docs/wireup.md §c.8), without MPI:
 * the last rank sends PMIx_Abort(7, ...) and exits 7 at once; the others wait for a minute. A
 * launcher passes when it ends every rank promptly and itself exits with status 7. Lines:
 * "WAITING pmix_abort rank=R" from the waiting ranks, "ABORTING pmix_abort rank=R code=7" from the
 * aborting one. Like mpi_abort.c, success is judged by the launcher's exit status.
 */
#include "pmixtest.h"

int main(void)
{
    uint32_t size = pt_init("pmix_abort", 60);
    if (size > 0 && pt_me.rank == size - 1) {
        printf("ABORTING pmix_abort rank=%u code=7\n", pt_me.rank);
        fflush(stdout);
        PMIx_Abort(7, "N/A", NULL, 0);
        _exit(7);
    }
    printf("WAITING pmix_abort rank=%u\n", pt_me.rank);
    fflush(stdout);
    sleep(60);
    printf("FAIL pmix_abort rank=%u was not ended\n", pt_me.rank);
    return 1;
}
