/*
 * pmix_get_missing.c - gets of keys nobody put (issue 10, "a get of a key nobody put"). Every
 * rank puts and commits one key, fences with data collection, then asks its right-hand peer for
 * wireup.nobody: with PMIX_IMMEDIATE (expect NOT-FOUND at once), with PMIX_TIMEOUT=1 (expect
 * NOT-FOUND or TIMEOUT within a few seconds), and with no directives (expect an error, not a hang).
 * It also asks for a reserved job key nobody registered (pmix.nobody: NOT-FOUND at once, the client
 * adds PMIX_IMMEDIATE itself) and for a missing key of its own (an error; a libpmix server answers
 * TIMEOUT after its 2 s default wait). Exit 0 only if every answer was an error in its time bound.
 * Usage: pmix_get_missing   (any number of ranks)
 */
#include "pmixtest.h"

static void get(const pmix_proc_t *p, const char *key, const char *how, pmix_info_t *info,
                size_t ninfo, int immediate, double bound_ms)
{
    pmix_value_t *val = NULL;
    double t0 = pt_now_ms();
    pmix_status_t rc = PMIx_Get(p, key, info, ninfo, &val);
    double ms = pt_now_ms() - t0;
    int ok = immediate ? rc == PMIX_ERR_NOT_FOUND : rc != PMIX_SUCCESS;
    pt_check(ok && ms < bound_ms, "get %s:%u key=%s %s status=%s (%d) ms=%.0f", p->nspace, p->rank,
             key, how, PMIx_Error_string(rc), rc, ms);
    if (val != NULL) {
        PMIX_VALUE_RELEASE(val);
    }
}

int main(void)
{
    uint32_t size = pt_init("pmix_get_missing", 40);
    pmix_status_t rc = pt_put_string(PMIX_GLOBAL, "wireup.some", "thing");
    pt_check(rc == PMIX_SUCCESS, "put %s", PMIx_Error_string(rc));
    rc = PMIx_Commit();
    pt_check(rc == PMIX_SUCCESS, "commit %s", PMIx_Error_string(rc));
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    pt_check(rc == PMIX_SUCCESS, "fence %s", PMIx_Error_string(rc));

    pmix_proc_t peer, wild;
    PMIX_LOAD_PROCID(&peer, pt_me.nspace, (pt_me.rank + 1) % size);
    PMIX_LOAD_PROCID(&wild, pt_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &yes, PMIX_BOOL);
    get(&peer, "wireup.nobody", "immediate", &info, 1, 1, 2000);
    int one = 1;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &one, PMIX_INT);
    get(&peer, "wireup.nobody", "timeout=1", &info, 1, 0, 6000);
    get(&peer, "wireup.nobody", "plain", NULL, 0, 0, 15000);
    get(&wild, "pmix.nobody", "reserved", NULL, 0, 1, 2000);
    get(&pt_me, "wireup.nobody", "own", NULL, 0, 0, 15000);
    return pt_finish();
}
