/*
 * iof_tool.c - a libpmix 4.2.2 tool that spawns with PMIX_IOF_* attributes (docs/cli.md "Output").
 *
 * usage: iof_tool URI NP DIRECTIVE...
 *
 * DIRECTIVE: tag, tagfull, rank, ts, raw, fonly (booleans set true), dir=PATH, file=PATH.
 * Spawns NP processes of sh -c 'echo "o $PMIX_RANK"; echo "e $PMIX_RANK" >&2' with
 * PMIX_NOTIFY_COMPLETION, waits for the job's end and finalizes. libpmix itself writes the job's
 * output to this program's stdout and stderr, formatted as the directives ask; the program's own
 * lines go to stderr, starting with "TOOL ". A watchdog ends the program if any call hangs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix_tool.h>

static volatile int ended = 0;
static volatile int registered = 0;

static void on_alarm(int s)
{
    (void) s;
    const char msg[] = "TOOL TIMEOUT\n";
    write(2, msg, sizeof msg - 1);
    _exit(3);
}

static void evhandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) source; (void) info; (void) ninfo; (void) results; (void) nresults;
    if (status == PMIX_EVENT_JOB_END) {
        ended = 1;
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
    if (argc < 3) { fprintf(stderr, "usage: iof_tool URI NP DIRECTIVE...\n"); return 2; }
    signal(SIGALRM, on_alarm);
    alarm(30);

    pmix_info_t info[1];
    pmix_proc_t me;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, argv[1], PMIX_STRING);
    pmix_status_t rc = PMIx_tool_init(&me, info, 1);
    fprintf(stderr, "TOOL INIT rc=%d\n", rc);
    if (rc != PMIX_SUCCESS) return 1;

    pmix_status_t code = PMIX_EVENT_JOB_END;
    PMIx_Register_event_handler(&code, 1, NULL, 0, evhandler, regcb, NULL);
    while (!registered) usleep(1000);

    pmix_info_t *jinfo;
    size_t nj = 0;
    PMIX_INFO_CREATE(jinfo, argc + 1);
    bool t = true;
    PMIX_INFO_LOAD(&jinfo[nj++], PMIX_NOTIFY_COMPLETION, &t, PMIX_BOOL);
    for (int a = 3; a < argc; a++) {
        const char *d = argv[a];
        if (0 == strcmp(d, "tag")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_TAG_OUTPUT, &t, PMIX_BOOL);
        else if (0 == strcmp(d, "tagfull")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_TAG_FULLNAME_OUTPUT, &t, PMIX_BOOL);
        else if (0 == strcmp(d, "rank")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_RANK_OUTPUT, &t, PMIX_BOOL);
        else if (0 == strcmp(d, "ts")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_TIMESTAMP_OUTPUT, &t, PMIX_BOOL);
        else if (0 == strcmp(d, "raw")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_OUTPUT_RAW, &t, PMIX_BOOL);
        else if (0 == strcmp(d, "fonly")) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_FILE_ONLY, &t, PMIX_BOOL);
        else if (0 == strncmp(d, "dir=", 4)) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_OUTPUT_TO_DIRECTORY, d + 4, PMIX_STRING);
        else if (0 == strncmp(d, "file=", 5)) PMIX_INFO_LOAD(&jinfo[nj++], PMIX_IOF_OUTPUT_TO_FILE, d + 5, PMIX_STRING);
        else { fprintf(stderr, "TOOL bad directive %s\n", d); return 2; }
    }
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup("/bin/sh");
    app.argv = calloc(4, sizeof(char *));
    app.argv[0] = strdup("sh");
    app.argv[1] = strdup("-c");
    app.argv[2] = strdup("echo \"o $PMIX_RANK\"; echo \"e $PMIX_RANK\" >&2");
    app.maxprocs = atoi(argv[2]);
    app.cwd = get_current_dir_name();
    pmix_nspace_t ns;
    rc = PMIx_Spawn(jinfo, nj, &app, 1, ns);
    fprintf(stderr, "TOOL SPAWN rc=%d nspace=%s\n", rc, ns);
    if (rc != PMIX_SUCCESS) {
        PMIx_tool_finalize();
        return 4;
    }
    while (!ended) usleep(1000);
    fprintf(stderr, "TOOL END\n");
    rc = PMIx_tool_finalize();
    fprintf(stderr, "TOOL FINALIZE rc=%d\n", rc);
    return 0;
}
