/*
 * pmix_put_get.c - put, commit, fence (no data collection), get, and the scope rules (issue 10,
 * "Commit, fence and get"). Each rank puts one key per scope - wireup.local (PMIX_LOCAL),
 * wireup.remote (PMIX_REMOTE), wireup.global (PMIX_GLOBAL) - with values naming itself, commits,
 * fences over its namespace, then gets all three keys of every rank, itself included.
 *
 * What it expects (libpmix 4.2.2 semantics, see docs/wireup.md): a rank sees all of its own keys;
 * a peer on the same node (same pmix.hname) sees LOCAL and GLOBAL keys and gets NOT-FOUND for
 * REMOTE ones; a peer on another node sees REMOTE and GLOBAL keys and gets NOT-FOUND for LOCAL
 * ones. libpmix fetches a peer's data from the server after the fence (GETNB), so this needs the
 * server to keep what each rank committed, per scope. Exit 0 only if every result matched.
 *
 * Usage: pmix_put_get   (any number of ranks, any number of nodes)
 */
#include "pmixtest.h"

static char *hostname_of(const pmix_proc_t *p)
{
    pmix_value_t *val = NULL;
    char *h = NULL;
    if (PMIx_Get(p, PMIX_HOSTNAME, NULL, 0, &val) == PMIX_SUCCESS && val->type == PMIX_STRING) {
        h = strdup(val->data.string);
    }
    if (val != NULL) {
        PMIX_VALUE_RELEASE(val);
    }
    return h;
}

int main(void)
{
    char key[64], want[64];
    static const pmix_scope_t scopes[] = {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL};
    static const char *names[] = {"local", "remote", "global"};
    uint32_t size = pt_init("pmix_put_get", 30);
    char *myhost = hostname_of(&pt_me);
    pt_check(myhost != NULL, "own hostname %s", myhost != NULL ? myhost : "-");
    for (int s = 0; s < 3; s++) {
        snprintf(key, sizeof key, "wireup.%s", names[s]);
        snprintf(want, sizeof want, "%s-of-%u", names[s], pt_me.rank);
        pmix_status_t rc = pt_put_string(scopes[s], key, want);
        pt_check(rc == PMIX_SUCCESS, "put %s %s", key, PMIx_Error_string(rc));
    }
    double t0 = pt_now_ms();
    pmix_status_t rc = PMIx_Commit();
    pt_check(rc == PMIX_SUCCESS, "commit %s ms=%.2f", PMIx_Error_string(rc), pt_now_ms() - t0);
    t0 = pt_now_ms();
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "fence %s ms=%.2f", PMIx_Error_string(rc), pt_now_ms() - t0);
    for (uint32_t r = 0; r < size; r++) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, pt_me.nspace, r);
        char *host = hostname_of(&peer);
        int same_node = host != NULL && myhost != NULL && strcmp(host, myhost) == 0;
        for (int s = 0; s < 3; s++) {
            pmix_value_t *val = NULL;
            int visible = r == pt_me.rank || scopes[s] == PMIX_GLOBAL
                          || (scopes[s] == PMIX_LOCAL) == same_node;
            snprintf(key, sizeof key, "wireup.%s", names[s]);
            snprintf(want, sizeof want, "%s-of-%u", names[s], r);
            t0 = pt_now_ms();
            rc = PMIx_Get(&peer, key, NULL, 0, &val);
            int ok = visible ? rc == PMIX_SUCCESS && val->type == PMIX_STRING
                                   && strcmp(val->data.string, want) == 0
                             : rc == PMIX_ERR_NOT_FOUND;
            pt_check(ok, "get peer=%u node=%s key=%s expect=%s got=%s ms=%.2f", r,
                     same_node ? "same" : "other", key, visible ? "value" : "NOT-FOUND",
                     rc == PMIX_SUCCESS && val->type == PMIX_STRING ? val->data.string
                                                                     : PMIx_Error_string(rc),
                     pt_now_ms() - t0);
            if (val != NULL) {
                PMIX_VALUE_RELEASE(val);
            }
        }
        free(host);
    }
    free(myhost);
    return pt_finish();
}
