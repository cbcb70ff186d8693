/*
 * cclient.c - a libpmix 4.2.2 client that jdvm launches (issue 4, "C interop"): PMIx_Init with
 * only the environment jdvm gives it, PMIx_Get of its job size and its local peers (answered from
 * the job data of the REQ reply), PMIx_Finalize. One line per result on stdout.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmix.h>

static void on_alarm(int s)
{
    (void) s;
    const char msg[] = "TIMEOUT\n";
    write(1, msg, sizeof msg - 1);
    _exit(3);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    alarm(20);
    setvbuf(stdout, NULL, _IOLBF, 0);
    pmix_proc_t me, wild;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    printf("INIT rc=%d nspace=%s rank=%u\n", rc, me.nspace, me.rank);
    if (rc != PMIX_SUCCESS) return 1;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val);
    printf("JOB_SIZE rc=%d value=%u\n", rc, rc == PMIX_SUCCESS ? val->data.uint32 : 0);
    val = NULL;
    rc = PMIx_Get(&wild, PMIX_LOCAL_PEERS, NULL, 0, &val);
    printf("LOCAL_PEERS rc=%d value=%s\n", rc, rc == PMIX_SUCCESS ? val->data.string : "-");
    val = NULL;
    rc = PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &val);
    printf("HOSTNAME rc=%d value=%s\n", rc, rc == PMIX_SUCCESS ? val->data.string : "-");
    rc = PMIx_Finalize(NULL, 0);
    printf("FINALIZE rc=%d\n", rc);
    return 0;
}
