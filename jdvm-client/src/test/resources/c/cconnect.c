/*
 * cconnect.c - PMIx_Connect and PMIx_Disconnect across two namespaces with no modex at all (no
 * put, commit, fence or get of committed data), so that connect is tested on its own. The parent
 * (one process) spawns NCHILD copies of itself ("child <parent namespace>") with PMIx_Spawn; then
 * every process of both jobs connects over {own, WILDCARD} and {other, WILDCARD} (the children
 * list the other job first), reads the other job's size and its rank 0's host (job data the
 * connect reply carries), and disconnects. A child also reads its PMIX_PARENT_ID. One line per
 * result on stdout; exit 0 only if every call succeeded.
 * Usage: cconnect [NCHILD]
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix.h>

static pmix_proc_t me;
static int failures;

static void on_alarm(int s)
{
    (void) s;
    const char msg[] = "TIMEOUT\n";
    write(1, msg, sizeof msg - 1);
    _exit(3);
}

static void line(pmix_status_t rc, const char *what, const char *value)
{
    printf("%s rc=%d ns=%s rank=%u value=%s\n", what, rc, me.nspace, me.rank, value);
    if (rc != PMIX_SUCCESS) {
        failures++;
    }
}

static void connect_and_read(const char *first, const char *second, const char *other)
{
    pmix_proc_t procs[2], wild, zero;
    char text[PMIX_MAX_NSLEN + 32];
    PMIX_LOAD_PROCID(&procs[0], first, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], second, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Connect(procs, 2, NULL, 0);
    line(rc, "CONNECT", other);
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&wild, other, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val);
    snprintf(text, sizeof text, "%u", rc == PMIX_SUCCESS ? val->data.uint32 : 0);
    line(rc, "OTHER_SIZE", text);
    val = NULL;
    PMIX_LOAD_PROCID(&zero, other, 0);
    rc = PMIx_Get(&zero, PMIX_HOSTNAME, NULL, 0, &val);
    line(rc, "OTHER_HOST", rc == PMIX_SUCCESS ? val->data.string : "-");
    rc = PMIx_Disconnect(procs, 2, NULL, 0);
    line(rc, "DISCONNECT", other);
}

int main(int argc, char **argv)
{
    signal(SIGALRM, on_alarm);
    alarm(30);
    setvbuf(stdout, NULL, _IOLBF, 0);
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("INIT rc=%d\n", rc);
        return 1;
    }
    char text[PMIX_MAX_NSLEN + 32];
    if (argc > 2 && strcmp(argv[1], "child") == 0) {
        pmix_value_t *val = NULL;
        rc = PMIx_Get(&me, PMIX_PARENT_ID, NULL, 0, &val);
        snprintf(text, sizeof text, "%s.%u", rc == PMIX_SUCCESS ? val->data.proc->nspace : "-",
                 rc == PMIX_SUCCESS ? val->data.proc->rank : 0);
        line(rc, "PARENT", text);
        connect_and_read(argv[2], me.nspace, argv[2]);
    } else {
        pmix_app_t app;
        pmix_nspace_t child;
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup(argv[0]);
        PMIX_ARGV_APPEND(rc, app.argv, argv[0]);
        PMIX_ARGV_APPEND(rc, app.argv, "child");
        PMIX_ARGV_APPEND(rc, app.argv, me.nspace);
        app.maxprocs = argc > 1 ? atoi(argv[1]) : 2;
        rc = PMIx_Spawn(NULL, 0, &app, 1, child);
        line(rc, "SPAWN", child);
        PMIX_APP_DESTRUCT(&app);
        if (rc == PMIX_SUCCESS) {
            connect_and_read(me.nspace, child, child);
        }
    }
    rc = PMIx_Finalize(NULL, 0);
    line(rc, "FINALIZE", "-");
    return failures == 0 ? 0 : 1;
}
