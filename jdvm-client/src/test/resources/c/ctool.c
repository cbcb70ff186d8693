/*
 * ctool.c - a libpmix 4.2.2 tool against a running jdvm (issue 4, "C interop").
 *
 * usage: ctool URI
 *
 * Connects with PMIx_tool_init(PMIX_SERVER_URI), registers a handler for
 * PMIX_ALLOC_TIMEOUT_WARNING (-194, no macro in 4.2.2), requests an allocation as a 4.2 peer
 * sends one (string keys for the attributes 4.2.2 lacks, inheritance as PMIX_UINT8, PMIX_ALLOC_TIME
 * as its 4.2.2 uint32), spawns a job into it with PMIX_SPAWN_TARGET ("pmix.spwn.tgt"), queries it
 * with PMIX_QUERY_ALLOC_STATUS, waits for the warning, and finalizes. Every result is one line on
 * stdout: "KEY k=v ...". A watchdog ends the program if any call hangs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix_tool.h>

#define SPAWN_TARGET "pmix.spwn.tgt"
#define ALLOC_INHERITANCE "pmix.alloc.inhrt"
#define ALLOC_WARN_TIMEOUT "pmix.alloc.wtmo"
#define ALLOC_TIMEOUT_WARNING (-194)

static volatile int warned = 0;
static volatile int registered = 0;
static char warned_alloc[256];
static unsigned warned_remaining;

static void on_alarm(int s)
{
    (void) s;
    const char msg[] = "TIMEOUT\n";
    write(1, msg, sizeof msg - 1);
    _exit(3);
}

static void evhandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) results; (void) nresults;
    if (status == ALLOC_TIMEOUT_WARNING) {
        for (size_t n = 0; n < ninfo; n++) {
            if (0 == strcmp(info[n].key, PMIX_ALLOC_ID) && info[n].value.type == PMIX_STRING) {
                snprintf(warned_alloc, sizeof warned_alloc, "%s", info[n].value.data.string);
            } else if (0 == strcmp(info[n].key, PMIX_TIME_REMAINING)) {
                warned_remaining = info[n].value.data.uint32;
            }
        }
        printf("EVENT status=%d source=%s.%u\n", status, source->nspace, source->rank);
        fflush(stdout);
        warned = 1;
    }
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void regcb(pmix_status_t st, size_t ref, void *cbdata)
{
    (void) ref; (void) cbdata;
    registered = st == PMIX_SUCCESS ? 1 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: ctool URI\n"); return 2; }
    signal(SIGALRM, on_alarm);
    alarm(30);
    setvbuf(stdout, NULL, _IOLBF, 0);

    pmix_info_t info[1];
    pmix_proc_t me;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, argv[1], PMIX_STRING);
    pmix_status_t rc = PMIx_tool_init(&me, info, 1);
    printf("INIT rc=%d nspace=%s rank=%u\n", rc, me.nspace, me.rank);
    if (rc != PMIX_SUCCESS) return 1;

    pmix_status_t code = ALLOC_TIMEOUT_WARNING;
    PMIx_Register_event_handler(&code, 1, NULL, 0, evhandler, regcb, NULL);
    while (!registered) usleep(1000);
    printf("REGISTER ok=%d\n", registered);

    /* NEW as a 4.2 peer sends it */
    pmix_info_t in[5];
    uint64_t nnodes = 1;
    uint8_t inherit = 2;            /* PMIX_ALLOC_INHERIT_CHILD, as PMIX_UINT8 */
    uint32_t wtmo = 2, atime = 4;   /* warn 2 s before a 4 s limit */
    PMIX_INFO_LOAD(&in[0], PMIX_ALLOC_NUM_NODES, &nnodes, PMIX_UINT64);
    PMIX_INFO_LOAD(&in[1], PMIX_ALLOC_REQ_ID, "c-req-1", PMIX_STRING);
    PMIX_INFO_LOAD(&in[2], ALLOC_INHERITANCE, &inherit, PMIX_UINT8);
    PMIX_INFO_LOAD(&in[3], ALLOC_WARN_TIMEOUT, &wtmo, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[4], PMIX_ALLOC_TIME, &atime, PMIX_UINT32);
    pmix_info_t *res = NULL;
    size_t nres = 0;
    rc = PMIx_Allocation_request(PMIX_ALLOC_NEW, in, 5, &res, &nres);
    char allocid[256] = "";
    printf("ALLOC rc=%d nresults=%zu\n", rc, nres);
    for (size_t n = 0; n < nres; n++) {
        if (res[n].value.type == PMIX_STRING) {
            printf("ALLOC_INFO %s=%s\n", res[n].key, res[n].value.data.string);
            if (0 == strcmp(res[n].key, PMIX_ALLOC_ID)) {
                snprintf(allocid, sizeof allocid, "%s", res[n].value.data.string);
            }
        } else if (res[n].value.type == PMIX_UINT32) {
            printf("ALLOC_INFO %s=%u\n", res[n].key, res[n].value.data.uint32);
        }
    }
    if (rc != PMIX_SUCCESS) return 1;

    /* spawn into it */
    pmix_info_t jinfo[2];
    bool t = true;
    PMIX_INFO_LOAD(&jinfo[0], SPAWN_TARGET, allocid, PMIX_STRING);
    PMIX_INFO_LOAD(&jinfo[1], PMIX_NOTIFY_COMPLETION, &t, PMIX_BOOL);
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup("/bin/sh");
    app.argv = calloc(4, sizeof(char *));
    app.argv[0] = strdup("sh");
    app.argv[1] = strdup("-c");
    app.argv[2] = strdup("echo hello-from-c-job on $PMIX_HOSTNAME");
    app.maxprocs = 1;
    pmix_nspace_t ns;
    rc = PMIx_Spawn(jinfo, 2, &app, 1, ns);
    printf("SPAWN rc=%d nspace=%s\n", rc, ns);

    /* query it */
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = calloc(2, sizeof(char *));
    q.keys[0] = strdup(PMIX_QUERY_ALLOC_STATUS);
    PMIX_INFO_CREATE(q.qualifiers, 1);
    q.nqual = 1;
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_ALLOC_ID, allocid, PMIX_STRING);
    pmix_info_t *qres = NULL;
    size_t nq = 0;
    rc = PMIx_Query_info(&q, 1, &qres, &nq);
    printf("QUERY rc=%d nresults=%zu", rc, nq);
    for (size_t n = 0; n < nq; n++) {
        if (qres[n].value.type == PMIX_STRING) printf(" %s=%s", qres[n].key, qres[n].value.data.string);
    }
    printf("\n");

    /* the warning: 2 s before the 4 s limit */
    for (int i = 0; i < 15000 && !warned; i++) usleep(1000);
    printf("WARNING received=%d alloc=%s remaining=%u\n", warned, warned_alloc, warned_remaining);

    rc = PMIx_tool_finalize();
    printf("FINALIZE rc=%d\n", rc);
    return 0;
}
