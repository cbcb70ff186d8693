/*
 * pmix_pubsub.c - publish / lookup / unpublish across two namespaces (issue 10, "Publish /
 * lookup / unpublish"). Rank 0 of the parent job publishes wireup.ping (default range and
 * persistence), spawns one child (this program, argument "child") with PMIx_Spawn, and waits for
 * the child's wireup.pong with PMIX_WAIT and PMIX_TIMEOUT. The child looks up wireup.ping the same
 * way, checks the value and the publisher, and publishes wireup.pong with
 * PMIX_PERSISTENCE=FIRST_READ (what Open MPI's MPI_Comm_spawn uses). The parent then checks that
 * the first read deleted wireup.pong (a second lookup without wait: NOT-FOUND), unpublishes
 * wireup.ping and checks it is gone. Other parent ranks only initialize and finalize.
 * Lines: "OK pmix_pubsub rank=R ..." per check, from both namespaces; exit 0 only if all passed.
 * Usage: pmix_pubsub   (parent job of any size)
 */
#include "pmixtest.h"

static pmix_status_t lookup(const char *key, int wait_s, pmix_pdata_t *out)
{
    pmix_info_t info[2];
    bool yes = true;
    PMIX_PDATA_CONSTRUCT(out);
    PMIX_LOAD_KEY(out->key, key);
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &wait_s, PMIX_INT);
    return PMIx_Lookup(out, 1, wait_s > 0 ? info : NULL, wait_s > 0 ? 2 : 0);
}

static int child(void)
{
    pmix_pdata_t pd;
    pmix_status_t rc = lookup("wireup.ping", 10, &pd);
    int ok = rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING
             && strncmp(pd.value.data.string, "ping-from-", 10) == 0 && pd.proc.rank == 0
             && strcmp(pd.proc.nspace, pt_me.nspace) != 0;
    pt_check(ok, "child lookup wireup.ping %s value=%s publisher=%s:%u", PMIx_Error_string(rc),
             rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING ? pd.value.data.string : "-",
             pd.proc.nspace, pd.proc.rank);
    PMIX_PDATA_DESTRUCT(&pd);
    char text[PMIX_MAX_NSLEN + 32];
    snprintf(text, sizeof text, "pong-from-%s", pt_me.nspace);
    pmix_info_t info[2];
    pmix_persistence_t first = PMIX_PERSIST_FIRST_READ;
    PMIX_INFO_LOAD(&info[0], "wireup.pong", text, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_PERSISTENCE, &first, PMIX_PERSIST);
    rc = PMIx_Publish(info, 2);
    pt_check(rc == PMIX_SUCCESS, "child publish wireup.pong %s", PMIx_Error_string(rc));
    return pt_finish();
}

int main(int argc, char **argv)
{
    pt_init("pmix_pubsub", 40);
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        return child();
    }
    if (pt_me.rank != 0) {
        return pt_finish();
    }
    char text[PMIX_MAX_NSLEN + 32];
    snprintf(text, sizeof text, "ping-from-%s", pt_me.nspace);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "wireup.ping", text, PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    pt_check(rc == PMIX_SUCCESS, "publish wireup.ping %s", PMIx_Error_string(rc));

    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(argv[0]);
    PMIX_ARGV_APPEND(rc, app.argv, argv[0]);
    PMIX_ARGV_APPEND(rc, app.argv, "child");
    app.maxprocs = 1;
    pmix_nspace_t childns;
    rc = PMIx_Spawn(NULL, 0, &app, 1, childns);
    pt_check(rc == PMIX_SUCCESS, "spawn %s child=%s", PMIx_Error_string(rc), childns);
    PMIX_APP_DESTRUCT(&app);

    pmix_pdata_t pd;
    rc = lookup("wireup.pong", 10, &pd);
    char want[PMIX_MAX_NSLEN + 32];
    snprintf(want, sizeof want, "pong-from-%s", childns);
    int ok = rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING
             && strcmp(pd.value.data.string, want) == 0 && PMIX_CHECK_NSPACE(pd.proc.nspace, childns);
    pt_check(ok, "lookup wireup.pong %s value=%s publisher=%s:%u", PMIx_Error_string(rc),
             rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING ? pd.value.data.string : "-",
             pd.proc.nspace, pd.proc.rank);
    PMIX_PDATA_DESTRUCT(&pd);
    rc = lookup("wireup.pong", 0, &pd);
    pt_check(rc == PMIX_ERR_NOT_FOUND, "lookup wireup.pong again (first-read) %s",
             PMIx_Error_string(rc));
    PMIX_PDATA_DESTRUCT(&pd);

    char *keys[] = {"wireup.ping", NULL};
    rc = PMIx_Unpublish(keys, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "unpublish wireup.ping %s", PMIx_Error_string(rc));
    rc = lookup("wireup.ping", 0, &pd);
    pt_check(rc == PMIX_ERR_NOT_FOUND, "lookup wireup.ping after unpublish %s",
             PMIx_Error_string(rc));
    PMIX_PDATA_DESTRUCT(&pd);
    return pt_finish();
}
