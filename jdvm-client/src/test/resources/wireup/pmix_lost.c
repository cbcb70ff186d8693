/*
 * pmix_lost.c - what a libpmix 4.2.2 client hears when its server dies (docs/journal.md
 * "Clients"). Registers a handler for PMIX_ERR_LOST_CONNECTION and a default handler, writes
 * "READY <pid>" to FILE.ready, then waits (bounded) for an event. When one comes it records
 * "EVENT <code name> <code>" lines, then tries a PMIx_Fence and records "FENCE <status name>", and
 * writes FILE (renamed from FILE.tmp, so the test reads it whole). Exit 0 if the lost-connection
 * handler ran.
 * Usage: pmix_lost FILE
 */
#include "pmixtest.h"

static volatile int lost;
static char events[1024];

static void record(pmix_status_t status)
{
    size_t n = strlen(events);
    if (n + 100 < sizeof events) {
        snprintf(events + n, sizeof events - n, "EVENT %s %d\n", PMIx_Error_string(status), status);
    }
}

static void on_lost(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) source; (void) info; (void) ninfo; (void) results; (void) nresults;
    record(status);
    lost = 1;
    if (cbfunc != NULL) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static void on_any(size_t id, pmix_status_t status, const pmix_proc_t *source,
                   pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) source; (void) info; (void) ninfo; (void) results; (void) nresults;
    record(status);
    if (cbfunc != NULL) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc != 2) {
        fprintf(stderr, "usage: pmix_lost FILE\n");
        return 2;
    }
    pt_init("pmix_lost", 60);
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_lost, NULL, NULL);
    pt_check(rc >= 0, "register lost-connection handler %d", rc);
    rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, on_any, NULL, NULL);
    pt_check(rc >= 0, "register default handler %d", rc);

    snprintf(path, sizeof path, "%s.ready", argv[1]);
    FILE *f = fopen(path, "w");
    fprintf(f, "READY %d\n", (int) getpid());
    fclose(f);

    while (!lost) {
        usleep(10000);
    }
    usleep(100000); /* let the default handler record what else came */
    rc = PMIx_Fence(NULL, 0, NULL, 0);

    snprintf(path, sizeof path, "%s.tmp", argv[1]);
    f = fopen(path, "w");
    fprintf(f, "%sFENCE %s %d\n", events, PMIx_Error_string(rc), rc);
    fclose(f);
    rename(path, argv[1]);
    return 0;
}
