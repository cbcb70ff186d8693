/*
 * pmix_fence_collect.c - fence with PMIX_COLLECT_DATA, as Open MPI's MPI_Init modex does (issue
 * 10). Each rank puts a GLOBAL key and a GLOBAL blob of BLOB bytes (argv[1], default 1000;
 * libpmix 4.2.2 sends strings above its compression limit as PMIX_COMPRESSED_STRING), commits,
 * fences with collect data over an explicit list of all ranks, then gets both keys of every rank. Also fences once more without
 * data (the end-of-MPI_Init barrier). Prints the fence times. Exit 0 only if every value matched.
 *
 * Usage: pmix_fence_collect [BLOB]
 */
#include "pmixtest.h"

static char *blob_of(uint32_t rank, size_t len)
{
    char *b = malloc(len + 1);
    for (size_t i = 0; i < len; i++) {
        b[i] = (char) ('a' + (rank + i) % 26);
    }
    b[len] = '\0';
    return b;
}

int main(int argc, char **argv)
{
    size_t len = argc > 1 ? (size_t) atol(argv[1]) : 1000;
    uint32_t size = pt_init("pmix_fence_collect", 30);
    char want[64];
    snprintf(want, sizeof want, "value-of-%u", pt_me.rank);
    pmix_status_t rc = pt_put_string(PMIX_GLOBAL, "wireup.value", want);
    char *mine = blob_of(pt_me.rank, len);
    pmix_status_t rc2 = pt_put_string(PMIX_GLOBAL, "wireup.blob", mine);
    free(mine);
    pt_check(rc == PMIX_SUCCESS && rc2 == PMIX_SUCCESS, "put %s %s", PMIx_Error_string(rc),
             PMIx_Error_string(rc2));
    rc = PMIx_Commit();
    pt_check(rc == PMIX_SUCCESS, "commit %s", PMIx_Error_string(rc));

    pmix_proc_t *all;
    PMIX_PROC_CREATE(all, size);
    for (uint32_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&all[r], pt_me.nspace, r);
    }
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    double t0 = pt_now_ms();
    rc = PMIx_Fence(all, size, &collect, 1);
    pt_check(rc == PMIX_SUCCESS, "fence collect=1 procs=%u %s ms=%.2f", size, PMIx_Error_string(rc),
             pt_now_ms() - t0);
    t0 = pt_now_ms();
    for (uint32_t r = 0; r < size; r++) {
        pmix_value_t *val = NULL;
        snprintf(want, sizeof want, "value-of-%u", r);
        rc = PMIx_Get(&all[r], "wireup.value", NULL, 0, &val);
        int ok = rc == PMIX_SUCCESS && val->type == PMIX_STRING && strcmp(val->data.string, want) == 0;
        pt_check(ok, "get peer=%u key=wireup.value %s", r, PMIx_Error_string(rc));
        if (val != NULL) {
            PMIX_VALUE_RELEASE(val);
        }
        val = NULL;
        char *expect = blob_of(r, len);
        rc = PMIx_Get(&all[r], "wireup.blob", NULL, 0, &val);
        ok = rc == PMIX_SUCCESS && val->type == PMIX_STRING && strcmp(val->data.string, expect) == 0;
        pt_check(ok, "get peer=%u key=wireup.blob len=%zu %s", r, len, PMIx_Error_string(rc));
        free(expect);
        if (val != NULL) {
            PMIX_VALUE_RELEASE(val);
        }
    }
    double gets = pt_now_ms() - t0;
    t0 = pt_now_ms();
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "fence collect=0 %s ms=%.2f gets_ms=%.2f", PMIx_Error_string(rc),
             pt_now_ms() - t0, gets);
    PMIX_PROC_FREE(all, size);
    return pt_finish();
}
