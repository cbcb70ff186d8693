/*
 * pmix_mixed.c - one rank of a job whose other ranks may be Java ones (jdvm's JdvmClient, see
 * MixedJobRank in jdvm-client's tests): each rank puts wireup.who = "c-<rank>" (PMIX_GLOBAL),
 * commits, fences over its namespace with PMIX_COLLECT_DATA, and gets wireup.who of every other
 * rank, whatever it is written in. Lines: "OK pmix_mixed ns=NS rank=R peer=P who=W" per peer. Exit
 * 0 only if every get succeeded.
 *
 * Usage: pmix_mixed   (any number of ranks)
 */
#include "pmixtest.h"

int main(void)
{
    char who[64];
    uint32_t size = pt_init("pmix_mixed", 30);
    snprintf(who, sizeof who, "c-%u", pt_me.rank);
    pmix_status_t rc = pt_put_string(PMIX_GLOBAL, "wireup.who", who);
    pt_check(rc == PMIX_SUCCESS, "put %s", PMIx_Error_string(rc));
    rc = PMIx_Commit();
    pt_check(rc == PMIX_SUCCESS, "commit %s", PMIx_Error_string(rc));
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    pt_check(rc == PMIX_SUCCESS, "fence %s", PMIx_Error_string(rc));
    for (uint32_t r = 0; r < size; r++) {
        if (r == pt_me.rank) {
            continue;
        }
        pmix_proc_t peer;
        pmix_value_t *val = NULL;
        PMIX_LOAD_PROCID(&peer, pt_me.nspace, r);
        rc = PMIx_Get(&peer, "wireup.who", NULL, 0, &val);
        int ok = rc == PMIX_SUCCESS && val->type == PMIX_STRING;
        pt_check(ok, "peer=%u who=%s", r, ok ? val->data.string : PMIx_Error_string(rc));
        if (val != NULL) {
            PMIX_VALUE_RELEASE(val);
        }
    }
    return pt_finish();
}
