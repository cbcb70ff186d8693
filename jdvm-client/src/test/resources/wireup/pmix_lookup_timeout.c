/*
 * pmix_lookup_timeout.c - lookups of a key nobody publishes (issue 10, "a lookup that times out").
 * Rank 0 looks up wireup.never three ways: without PMIX_WAIT (expect NOT-FOUND at once); with
 * PMIX_WAIT as a bool and PMIX_TIMEOUT=T as an int, the form Open MPI 4.1 uses (expect an error -
 * TIMEOUT or NOT-FOUND - after about T seconds, not a hang); and with PMIX_WAIT as the standard's
 * int 0 ("all keys") and the same timeout. Other ranks only initialize and finalize.
 * Usage: pmix_lookup_timeout [T]   (default T = 2)
 */
#include "pmixtest.h"

static void lookup(const char *how, pmix_info_t *info, size_t ninfo, int timeout_s)
{
    pmix_pdata_t pd;
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, "wireup.never");
    double t0 = pt_now_ms();
    pmix_status_t rc = PMIx_Lookup(&pd, 1, info, ninfo);
    double ms = pt_now_ms() - t0;
    int ok = timeout_s == 0 ? rc == PMIX_ERR_NOT_FOUND && ms < 2000
                            : rc != PMIX_SUCCESS && ms >= (timeout_s - 0.5) * 1e3
                                  && ms < (timeout_s + 5) * 1e3;
    pt_check(ok, "lookup %s status=%s (%d) ms=%.0f", how, PMIx_Error_string(rc), rc, ms);
    PMIX_PDATA_DESTRUCT(&pd);
}

int main(int argc, char **argv)
{
    int timeout_s = argc > 1 ? atoi(argv[1]) : 2;
    pt_init("pmix_lookup_timeout", (unsigned) (3 * timeout_s + 20));
    if (pt_me.rank == 0) {
        lookup("nowait", NULL, 0, 0);
        pmix_info_t info[2];
        bool yes = true;
        PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
        lookup("wait=bool", info, 2, timeout_s);
        int all = 0;
        PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &all, PMIX_INT);
        lookup("wait=int0", info, 2, timeout_s);
    }
    return pt_finish();
}
