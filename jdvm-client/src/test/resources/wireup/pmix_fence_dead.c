/*
 * pmix_fence_dead.c - a fence one participant never enters (issue 10, "with timeouts and with the
 * error a participant's death gives"). The last rank sleeps a second (so the others are already
 * waiting) and then leaves without fencing, in the way MODE says; the other ranks fence over the
 * whole namespace with PMIX_TIMEOUT=T. They pass if the fence returns an error - any status but
 * SUCCESS - within T+5 seconds; a hang fails through the time bound.
 *
 * MODE finalize (default): PMIx_Finalize, then exit 0 (the only mode mpirun survives: it ends the
 *                          job when a rank exits without finalizing);
 *      exit:     _exit(0) without finalizing;  kill: SIGKILL itself.
 * Usage: pmix_fence_dead [MODE [T]]   (at least 2 ranks)
 */
#include "pmixtest.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "finalize";
    int timeout_s = argc > 2 ? atoi(argv[2]) : 5;
    uint32_t size = pt_init("pmix_fence_dead", (unsigned) timeout_s + 20);
    if (size < 2) {
        pt_check(0, "needs at least 2 ranks, has %u", size);
        return pt_finish();
    }
    if (pt_me.rank == size - 1) {
        printf("LEAVING pmix_fence_dead rank=%u mode=%s\n", pt_me.rank, mode);
        fflush(stdout);
        sleep(1);
        if (strcmp(mode, "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(mode, "exit") == 0) {
            _exit(0);
        }
        PMIx_Finalize(NULL, 0);
        return 0;
    }
    pmix_info_t tmo;
    PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &timeout_s, PMIX_INT);
    double t0 = pt_now_ms();
    pmix_status_t rc = PMIx_Fence(NULL, 0, &tmo, 1);
    double ms = pt_now_ms() - t0;
    pt_check(rc != PMIX_SUCCESS && ms < (timeout_s + 5) * 1e3, "fence status=%s (%d) ms=%.0f",
             PMIx_Error_string(rc), rc, ms);
    return pt_finish();
}
