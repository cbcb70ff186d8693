/*
 * pmixtest.h - shared scaffolding of the plain libpmix 4.2.2 wire-up clients in this directory
 * (issue 10): a hard time bound, init, and one output line per check.
 *
 * Output lines start with "OK <program> ns=NSPACE rank=R ..." or "FAIL <program> ns=NSPACE rank=R
 * ..."; a program exits 0 only if every check of this rank passed. A program that overruns its time bound prints
 * "TIMEOUT <program>" and exits 3, so a server that hangs fails the test instead of stalling it.
 */
#ifndef PMIXTEST_H
#define PMIXTEST_H

#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pmix.h>

#define PT_UNUSED __attribute__((unused))

static const char *pt_prog = "?";
static pmix_proc_t pt_me;
static int pt_failures;

static void pt_on_alarm(int s)
{
    char msg[128];
    int n = snprintf(msg, sizeof msg, "TIMEOUT %s rank=%u\n", pt_prog, pt_me.rank);
    (void) s;
    write(1, msg, (size_t) n);
    _exit(3);
}

/* Time since an arbitrary start, in milliseconds. */
PT_UNUSED static double pt_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One check: prints OK or FAIL with the caller's details. */
static void pt_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pt_check(int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s %s ns=%s rank=%u ", ok ? "OK" : "FAIL", pt_prog, pt_me.nspace, pt_me.rank);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    if (!ok) {
        pt_failures++;
    }
}

/* Arms the time bound, initializes, and fetches the job size. Exits 1 if init fails. */
PT_UNUSED static uint32_t pt_init(const char *prog, unsigned bound_s)
{
    pmix_proc_t wild;
    pmix_value_t *val = NULL;
    uint32_t size = 0;
    pt_prog = prog;
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGALRM, pt_on_alarm);
    alarm(bound_s);
    pmix_status_t rc = PMIx_Init(&pt_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL %s init %s\n", prog, PMIx_Error_string(rc));
        exit(1);
    }
    PMIX_LOAD_PROCID(&wild, pt_me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val);
    if (rc == PMIX_SUCCESS) {
        size = val->data.uint32;
        PMIX_VALUE_RELEASE(val);
    }
    return size;
}

/* Finalizes and returns the exit status: 0 if every check passed. */
PT_UNUSED static int pt_finish(void)
{
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL %s rank=%u finalize %s\n", pt_prog, pt_me.rank, PMIx_Error_string(rc));
        pt_failures++;
    }
    return pt_failures == 0 ? 0 : 1;
}

/* Puts one string value under key in the given scope. */
PT_UNUSED static pmix_status_t pt_put_string(pmix_scope_t scope, const char *key, const char *value)
{
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, value, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(scope, key, &v);
    PMIX_VALUE_DESTRUCT(&v);
    return rc;
}

#endif
