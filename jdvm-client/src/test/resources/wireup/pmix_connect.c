/*
 * pmix_connect.c - connect / disconnect across namespaces (issue 10, "connect / disconnect ...
 * returning the other namespaces' job data"). Every rank of the parent job puts and commits
 * wireup.who; rank 0 spawns NCHILD (argv[1], default 2) children (this program, arguments "child"
 * and the parent's namespace) and shares the child namespace with its own ranks through a put and
 * a fence. The children put and commit wireup.who too. Then every process of both jobs calls
 * PMIx_Connect over {parent, WILDCARD} and {child, WILDCARD}, reads the other job's size
 * (pmix.job.size of the other namespace - job data the connect reply carries) and the other job's
 * rank 0 wireup.who (committed data of another namespace), and calls PMIx_Disconnect over the same
 * set. Lines: "OK pmix_connect rank=R ..." per check from both jobs; exit 0 only if all passed.
 * Usage: pmix_connect [NCHILD]   (parent job of any size)
 */
#include "pmixtest.h"

static void connect_and_check(const char *mine, const char *other, uint32_t other_size)
{
    pmix_proc_t procs[2];
    PMIX_LOAD_PROCID(&procs[0], mine, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], other, PMIX_RANK_WILDCARD);
    double t0 = pt_now_ms();
    pmix_status_t rc = PMIx_Connect(procs, 2, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "connect %s+%s %s ms=%.1f", procs[0].nspace, procs[1].nspace,
             PMIx_Error_string(rc), pt_now_ms() - t0);

    pmix_value_t *val = NULL;
    pmix_proc_t wild, zero;
    PMIX_LOAD_PROCID(&wild, other, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&zero, other, 0);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val);
    int ok = rc == PMIX_SUCCESS && (other_size == 0 || val->data.uint32 == other_size);
    pt_check(ok, "get %s job.size %s value=%u", other, PMIx_Error_string(rc),
             rc == PMIX_SUCCESS ? val->data.uint32 : 0);
    if (val != NULL) {
        PMIX_VALUE_RELEASE(val);
    }
    val = NULL;
    char want[PMIX_MAX_NSLEN + 16];
    snprintf(want, sizeof want, "%s:0", other);
    rc = PMIx_Get(&zero, "wireup.who", NULL, 0, &val);
    ok = rc == PMIX_SUCCESS && val->type == PMIX_STRING && strcmp(val->data.string, want) == 0;
    pt_check(ok, "get %s:0 wireup.who %s value=%s", other, PMIx_Error_string(rc),
             rc == PMIX_SUCCESS && val->type == PMIX_STRING ? val->data.string : "-");
    if (val != NULL) {
        PMIX_VALUE_RELEASE(val);
    }
    t0 = pt_now_ms();
    rc = PMIx_Disconnect(procs, 2, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "disconnect %s ms=%.1f", PMIx_Error_string(rc), pt_now_ms() - t0);
}

static void put_who(void)
{
    char who[PMIX_MAX_NSLEN + 16];
    snprintf(who, sizeof who, "%s:%u", pt_me.nspace, pt_me.rank);
    pmix_status_t rc = pt_put_string(PMIX_GLOBAL, "wireup.who", who);
    pmix_status_t rc2 = PMIx_Commit();
    pt_check(rc == PMIX_SUCCESS && rc2 == PMIX_SUCCESS, "put+commit wireup.who %s %s",
             PMIx_Error_string(rc), PMIx_Error_string(rc2));
}

int main(int argc, char **argv)
{
    uint32_t size = pt_init("pmix_connect", 60);
    if (argc > 2 && strcmp(argv[1], "child") == 0) {
        pmix_nspace_t parentns;
        PMIX_LOAD_NSPACE(parentns, argv[2]);
        put_who();
        connect_and_check(pt_me.nspace, parentns, 0);
        return pt_finish();
    }
    int nchild = argc > 1 ? atoi(argv[1]) : 2;
    put_who();
    pmix_nspace_t childns;
    pmix_status_t rc;
    memset(childns, 0, sizeof childns);
    if (pt_me.rank == 0) {
        pmix_app_t app;
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup(argv[0]);
        PMIX_ARGV_APPEND(rc, app.argv, argv[0]);
        PMIX_ARGV_APPEND(rc, app.argv, "child");
        PMIX_ARGV_APPEND(rc, app.argv, pt_me.nspace);
        app.maxprocs = nchild;
        rc = PMIx_Spawn(NULL, 0, &app, 1, childns);
        pt_check(rc == PMIX_SUCCESS, "spawn %s child=%s n=%d", PMIx_Error_string(rc), childns,
                 nchild);
        PMIX_APP_DESTRUCT(&app);
        rc = pt_put_string(PMIX_GLOBAL, "wireup.childns", childns);
        pmix_status_t rc2 = PMIx_Commit();
        pt_check(rc == PMIX_SUCCESS && rc2 == PMIX_SUCCESS, "share child namespace %s %s",
                 PMIx_Error_string(rc), PMIx_Error_string(rc2));
    }
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "fence %s", PMIx_Error_string(rc));
    if (pt_me.rank != 0) {
        pmix_proc_t zero;
        pmix_value_t *val = NULL;
        PMIX_LOAD_PROCID(&zero, pt_me.nspace, 0);
        rc = PMIx_Get(&zero, "wireup.childns", NULL, 0, &val);
        pt_check(rc == PMIX_SUCCESS, "get child namespace %s", PMIx_Error_string(rc));
        if (rc == PMIX_SUCCESS) {
            PMIX_LOAD_NSPACE(childns, val->data.string);
            PMIX_VALUE_RELEASE(val);
        }
    }
    connect_and_check(pt_me.nspace, childns, (uint32_t) nchild);
    (void) size;
    return pt_finish();
}
