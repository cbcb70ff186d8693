/*
 * pmix_host.c - a minimal PMIx server host on libpmix 4.2.2's own server library, to run a job's
 * ranks against the reference implementation rather than jdvm: every rank is local, a fence
 * completes as soon as every local participant entered (the host passes the collected data
 * straight back), and gets of committed keys are served by libpmix itself. Used to check jdvm's
 * Java client (MixedJobRank) beside C ranks with a server that is not jdvm's: put, commit, fence,
 * get, publish, lookup, unpublish, log, connect and disconnect (a tiny data store answers the
 * publish calls; log lines are printed as "HOSTLOG rank=R key=value").
 *
 * Usage: pmix_host PROG0 [ARG...] [:: PROG1 [ARG...]]...   (one segment per rank)
 * Build: gcc -pthread -o pmix_host pmix_host.c $(pkg-config --cflags --libs pmix)
 * Exit 0 when every rank exited 0.
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    int active;
} lock_t;

static void lock_init(lock_t *l)
{
    pthread_mutex_init(&l->m, NULL);
    pthread_cond_init(&l->c, NULL);
    l->active = 1;
}

static void lock_wait(lock_t *l)
{
    pthread_mutex_lock(&l->m);
    while (l->active) {
        pthread_cond_wait(&l->c, &l->m);
    }
    pthread_mutex_unlock(&l->m);
}

static void opcb(pmix_status_t status, void *cbdata)
{
    lock_t *l = cbdata;
    (void) status;
    pthread_mutex_lock(&l->m);
    l->active = 0;
    pthread_cond_signal(&l->c);
    pthread_mutex_unlock(&l->m);
}

static pmix_status_t connected(const pmix_proc_t *p, void *o, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) p; (void) o; (void) cb; (void) cbd;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t finalized(const pmix_proc_t *p, void *o, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) p; (void) o; (void) cb; (void) cbd;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t aborted(const pmix_proc_t *p, void *o, int status, const char msg[],
                             pmix_proc_t procs[], size_t n, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) p; (void) o; (void) status; (void) msg; (void) procs; (void) n; (void) cb; (void) cbd;
    return PMIX_OPERATION_SUCCEEDED;
}

static void release(void *cbdata)
{
    free(cbdata);
}

static pmix_status_t fence(const pmix_proc_t procs[], size_t np, const pmix_info_t info[],
                           size_t ni, char *data, size_t nd, pmix_modex_cbfunc_t cb, void *cbd)
{
    char *copy = NULL;
    (void) procs; (void) np; (void) info; (void) ni;
    if (nd > 0) {
        copy = malloc(nd);
        memcpy(copy, data, nd);
    }
    cb(PMIX_SUCCESS, copy, nd, cbd, release, copy);
    return PMIX_SUCCESS;
}

/* The data store: what was published, by whom (no ranges, no persistence: enough to see the
 * messages arrive as libpmix decodes them). */
typedef struct {
    int used;
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_proc_t proc;
    pmix_value_t *value;
} pub_t;

static pub_t pubs[256];
static pthread_mutex_t publock = PTHREAD_MUTEX_INITIALIZER;

static pmix_status_t publish(const pmix_proc_t *p, const pmix_info_t info[], size_t ninfo,
                             pmix_op_cbfunc_t cb, void *cbd)
{
    (void) cb; (void) cbd;
    pthread_mutex_lock(&publock);
    for (size_t i = 0; i < ninfo; i++) {
        if (strncmp(info[i].key, "pmix.", 5) == 0) {
            continue; /* a directive: range, persistence, the uid */
        }
        for (int k = 0; k < 256; k++) {
            if (!pubs[k].used) {
                pubs[k].used = 1;
                PMIX_LOAD_KEY(pubs[k].key, info[i].key);
                pubs[k].proc = *p;
                PMIx_Value_xfer(pubs[k].value = malloc(sizeof(pmix_value_t)), &info[i].value);
                break;
            }
        }
    }
    pthread_mutex_unlock(&publock);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t lookup(const pmix_proc_t *p, char **keys, const pmix_info_t info[],
                            size_t ninfo, pmix_lookup_cbfunc_t cb, void *cbd)
{
    pmix_pdata_t pd[16];
    size_t n = 0;
    (void) p; (void) info; (void) ninfo;
    pthread_mutex_lock(&publock);
    for (int j = 0; keys[j] != NULL && n < 16; j++) {
        for (int k = 0; k < 256; k++) {
            if (pubs[k].used && strcmp(pubs[k].key, keys[j]) == 0) {
                PMIX_PDATA_CONSTRUCT(&pd[n]);
                pd[n].proc = pubs[k].proc;
                PMIX_LOAD_KEY(pd[n].key, pubs[k].key);
                PMIx_Value_xfer(&pd[n].value, pubs[k].value);
                n++;
                break;
            }
        }
    }
    pthread_mutex_unlock(&publock);
    cb(n > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, n > 0 ? pd : NULL, n, cbd);
    return PMIX_SUCCESS;
}

static pmix_status_t unpublish(const pmix_proc_t *p, char **keys, const pmix_info_t info[],
                               size_t ninfo, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) p; (void) info; (void) ninfo; (void) cb; (void) cbd;
    pthread_mutex_lock(&publock);
    for (int j = 0; keys != NULL && keys[j] != NULL; j++) {
        for (int k = 0; k < 256; k++) {
            if (pubs[k].used && strcmp(pubs[k].key, keys[j]) == 0) {
                pubs[k].used = 0;
            }
        }
    }
    pthread_mutex_unlock(&publock);
    return PMIX_OPERATION_SUCCEEDED;
}

/* Answers a libpmix upcall from a thread of its own, as a host's progress thread would: the log
 * path does not take an answer given inside the upcall. */
typedef struct {
    pmix_op_cbfunc_t cb;
    void *cbd;
} later_t;

static void *later_run(void *arg)
{
    later_t *l = arg;
    l->cb(PMIX_SUCCESS, l->cbd);
    free(l);
    return NULL;
}

static void later(pmix_op_cbfunc_t cb, void *cbd)
{
    pthread_t t;
    later_t *l = malloc(sizeof *l);
    l->cb = cb;
    l->cbd = cbd;
    pthread_create(&t, NULL, later_run, l);
    pthread_detach(t);
}

static void log_fn(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                   const pmix_info_t dirs[], size_t ndirs, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) dirs; (void) ndirs;
    for (size_t i = 0; i < ndata; i++) {
        if (data[i].value.type == PMIX_STRING) {
            printf("HOSTLOG rank=%u %s=%s\n", client->rank, data[i].key, data[i].value.data.string);
            fflush(stdout);
        }
    }
    if (cb != NULL) {
        later(cb, cbd);
    }
}

/* Every participant is local and has called once libpmix asks: the connect is complete. */
static pmix_status_t cnct(const pmix_proc_t procs[], size_t n, const pmix_info_t info[],
                          size_t ni, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) procs; (void) n; (void) info; (void) ni;
    if (cb != NULL) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_server_module_t module = {
    .client_connected = connected,
    .client_finalized = finalized,
    .abort = aborted,
    .fence_nb = fence,
    .publish = publish,
    .lookup = lookup,
    .unpublish = unpublish,
    .connect = cnct,
    .disconnect = cnct,
    .log = log_fn,
};

static char **with(char **env, const char *kv)
{
    int n = 0;
    while (env[n] != NULL) {
        n++;
    }
    env = realloc(env, (n + 2) * sizeof(char *));
    env[n] = strdup(kv);
    env[n + 1] = NULL;
    return env;
}

int main(int argc, char **argv)
{
    char *ranks[64][64];
    int nprocs = 0, k = 0;
    for (int i = 1; i < argc && nprocs < 64; i++) {
        if (strcmp(argv[i], "::") == 0) {
            ranks[nprocs++][k] = NULL;
            k = 0;
            continue;
        }
        if (k < 63) {
            ranks[nprocs][k++] = argv[i];
        }
    }
    ranks[nprocs++][k] = NULL;
    alarm(90);
    setenv("PMIX_MCA_gds", "hash", 1);
    pmix_status_t rc = PMIx_server_init(&module, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_host: server init %s\n", PMIx_Error_string(rc));
        return 2;
    }
    char peers[512] = "", *regex = NULL, *ppn = NULL, host[256];
    for (int r = 0; r < nprocs; r++) {
        snprintf(peers + strlen(peers), sizeof peers - strlen(peers), r ? ",%d" : "%d", r);
    }
    gethostname(host, sizeof host);
    PMIx_generate_regex(host, &regex);
    PMIx_generate_ppn(peers, &ppn);
    uint32_t n32 = (uint32_t) nprocs;
    pmix_info_t info[6];
    PMIX_INFO_LOAD(&info[0], PMIX_UNIV_SIZE, &n32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_SIZE, &n32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], PMIX_LOCAL_SIZE, &n32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[3], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIX_INFO_LOAD(&info[4], PMIX_NODE_MAP, regex, PMIX_STRING);
    PMIX_INFO_LOAD(&info[5], PMIX_PROC_MAP, ppn, PMIX_STRING);
    lock_t l;
    pmix_nspace_t nspace;
    PMIX_LOAD_NSPACE(nspace, "libpmixhost");
    lock_init(&l);
    PMIx_server_register_nspace(nspace, nprocs, info, 6, opcb, &l);
    lock_wait(&l);
    pid_t pids[64];
    for (int r = 0; r < nprocs; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, nspace, r);
        lock_init(&l);
        PMIx_server_register_client(&proc, geteuid(), getegid(), NULL, opcb, &l);
        lock_wait(&l);
        char **env = NULL;
        int n = 0;
        while (environ[n] != NULL) {
            n++;
        }
        env = calloc(n + 1, sizeof(char *));
        for (int i = 0; i < n; i++) {
            env[i] = strdup(environ[i]);
        }
        PMIx_server_setup_fork(&proc, &env);
        for (int i = 0; env[i] != NULL; i++) {
            if (strncmp(env[i], "PMIX_SERVER_URI41=", 18) == 0) {
                char kv[600];
                snprintf(kv, sizeof kv, "JDVM_URI=%s", env[i] + 18);
                env = with(env, kv);
                break;
            }
        }
        env = with(env, "JDVM_CREDENTIAL=libpmix-host");
        pids[r] = fork();
        if (pids[r] == 0) {
            execve(ranks[r][0], ranks[r], env);
            perror("execve");
            _exit(127);
        }
    }
    int failures = 0;
    for (int r = 0; r < nprocs; r++) {
        int status = 0;
        waitpid(pids[r], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "pmix_host: rank %d ended with status %d\n", r, status);
            failures++;
        }
    }
    PMIx_server_finalize();
    return failures == 0 ? 0 : 1;
}
