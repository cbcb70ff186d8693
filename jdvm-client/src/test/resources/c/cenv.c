/*
 * cenv.c - a libpmix 4.2.2 tool that spawns with PMIx's environment directives, a working
 * directory and a job time limit, as a C tool passes them (docs/cli.md "Environment, working
 * directory, time limit").
 *
 * usage: cenv URI DIR
 *
 * Spawn 1: job info PMIX_SET_ENVAR EV_J=job; app info PMIX_PREPEND_ENVAR EV_J[:]app,
 * PMIX_APPEND_ENVAR EV_K[,]tail, PMIX_UNSET_ENVAR EV_GONE, PMIX_WDIR DIR; the app's own env has
 * EV_GONE=here and EV_K=head. Its process prints "CHILD J=... K=... GONE=... PWD=...".
 * Spawn 2: PMIX_SET_ENVAR for PMIX_RANK (refused). Spawn 3: PMIX_JOB_TIMEOUT 1 on sleep 60.
 * Every result is one line on stdout; the tool then waits for a line on stdin before it finalizes,
 * so the forwarded output of spawn 1 reaches it first. A watchdog ends it if anything hangs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix_tool.h>

static void on_alarm(int s)
{
    (void) s;
    const char msg[] = "TIMEOUT\n";
    write(1, msg, sizeof msg - 1);
    _exit(3);
}

static void envar(pmix_info_t *info, const char *key, const char *name, const char *value, char sep)
{
    pmix_envar_t e;
    PMIX_ENVAR_LOAD(&e, (char *) name, (char *) value, sep);
    PMIX_INFO_LOAD(info, key, &e, PMIX_ENVAR);
    PMIX_ENVAR_DESTRUCT(&e);
}

static void shell_app(pmix_app_t *app, const char *script)
{
    PMIX_APP_CONSTRUCT(app);
    app->cmd = strdup("/bin/sh");
    app->argv = calloc(4, sizeof(char *));
    app->argv[0] = strdup("sh");
    app->argv[1] = strdup("-c");
    app->argv[2] = strdup(script);
    app->maxprocs = 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: cenv URI DIR\n"); return 2; }
    signal(SIGALRM, on_alarm);
    alarm(60);
    setvbuf(stdout, NULL, _IOLBF, 0);

    pmix_info_t info[1];
    pmix_proc_t me;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, argv[1], PMIX_STRING);
    pmix_status_t rc = PMIx_tool_init(&me, info, 1);
    printf("INIT rc=%d\n", rc);
    if (rc != PMIX_SUCCESS) return 1;

    pmix_info_t jinfo[1];
    envar(&jinfo[0], PMIX_SET_ENVAR, "EV_J", "job", ':');
    pmix_app_t app;
    shell_app(&app, "echo CHILD J=$EV_J K=$EV_K GONE=${EV_GONE-unset} PWD=$(pwd)");
    app.env = calloc(3, sizeof(char *));
    app.env[0] = strdup("EV_GONE=here");
    app.env[1] = strdup("EV_K=head");
    app.ninfo = 4;
    PMIX_INFO_CREATE(app.info, app.ninfo);
    envar(&app.info[0], PMIX_PREPEND_ENVAR, "EV_J", "app", ':');
    envar(&app.info[1], PMIX_APPEND_ENVAR, "EV_K", "tail", ',');
    PMIX_INFO_LOAD(&app.info[2], PMIX_UNSET_ENVAR, "EV_GONE", PMIX_STRING);
    PMIX_INFO_LOAD(&app.info[3], PMIX_WDIR, argv[2], PMIX_STRING);
    pmix_nspace_t ns;
    rc = PMIx_Spawn(jinfo, 1, &app, 1, ns);
    printf("SPAWN1 rc=%d nspace=%s\n", rc, rc == PMIX_SUCCESS ? ns : "");

    pmix_info_t bad[1];
    envar(&bad[0], PMIX_SET_ENVAR, "PMIX_RANK", "9", ':');
    pmix_app_t app2;
    shell_app(&app2, "true");
    rc = PMIx_Spawn(bad, 1, &app2, 1, ns);
    printf("SPAWN2 rc=%d\n", rc);

    pmix_info_t tinfo[1];
    int seconds = 1;
    PMIX_INFO_LOAD(&tinfo[0], PMIX_JOB_TIMEOUT, &seconds, PMIX_INT);
    pmix_app_t app3;
    shell_app(&app3, "exec sleep 60");
    rc = PMIx_Spawn(tinfo, 1, &app3, 1, ns);
    printf("SPAWN3 rc=%d nspace=%s\n", rc, rc == PMIX_SUCCESS ? ns : "");

    char line[16];
    if (fgets(line, sizeof line, stdin) == NULL) { /* the test closed stdin: finalize anyway */ }
    rc = PMIx_tool_finalize();
    printf("FINALIZE rc=%d\n", rc);
    return 0;
}
