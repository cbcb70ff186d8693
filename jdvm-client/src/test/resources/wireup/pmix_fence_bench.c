/*
 * pmix_fence_bench.c - the cost of a fence with data (issue 10, "Speed"): each rank puts a GLOBAL
 * key of BYTES bytes (argv[2], default 100), commits and fences with PMIX_COLLECT_DATA over its
 * namespace, ITER times (argv[1], default 200, after 20 untimed rounds), then gets its right-hand
 * peer's key once to check the data went round. Every rank prints
 *   "FENCE_BENCH rank=R size=N iterations=I bytes=B median_us=M p99_us=P mean_us=A"
 * with the time of one put+commit+fence round as this rank saw it (waiting for the slowest rank
 * included), and exits 0 if every call succeeded.
 * Usage: pmix_fence_bench [ITER [BYTES]]
 */
#include "pmixtest.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static int round_trip(int i, size_t bytes, const pmix_info_t *collect)
{
    char *value = malloc(bytes + 1);
    memset(value, 'a' + (char) ((pt_me.rank + (unsigned) i) % 26), bytes);
    value[bytes] = '\0';
    pmix_status_t rc = pt_put_string(PMIX_GLOBAL, "bench.value", value);
    free(value);
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Commit();
    }
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Fence(NULL, 0, collect, 1);
    }
    if (rc != PMIX_SUCCESS) {
        pt_check(0, "round %d %s", i, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 200;
    size_t bytes = argc > 2 ? (size_t) atol(argv[2]) : 100;
    uint32_t size = pt_init("pmix_fence_bench", 120);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    for (int i = 0; i < 20; i++) {
        if (round_trip(i, bytes, &collect) != 0) {
            return pt_finish();
        }
    }
    double *us = calloc((size_t) iterations, sizeof *us), sum = 0;
    for (int i = 0; i < iterations; i++) {
        double t0 = pt_now_ms();
        if (round_trip(i, bytes, &collect) != 0) {
            return pt_finish();
        }
        us[i] = (pt_now_ms() - t0) * 1e3;
        sum += us[i];
    }
    pmix_proc_t peer;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&peer, pt_me.nspace, (pt_me.rank + 1) % size);
    pmix_status_t rc = PMIx_Get(&peer, "bench.value", NULL, 0, &val);
    if (rc != PMIX_SUCCESS || val->type != PMIX_STRING || strlen(val->data.string) != bytes) {
        pt_check(0, "get of the peer's value %s", PMIx_Error_string(rc));
    }
    if (val != NULL) {
        PMIX_VALUE_RELEASE(val);
    }
    qsort(us, (size_t) iterations, sizeof *us, cmp);
    printf("FENCE_BENCH rank=%u size=%u iterations=%d bytes=%zu median_us=%.1f p99_us=%.1f "
           "mean_us=%.1f\n",
           pt_me.rank, size, iterations, bytes, us[iterations / 2],
           us[(iterations * 99) / 100 < iterations ? (iterations * 99) / 100 : iterations - 1],
           sum / iterations);
    free(us);
    return pt_finish();
}
