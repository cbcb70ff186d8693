/*
 * mpi_spawn_patterns.c - dynamic processes as test suites use them, in one program, every spawn
 * disconnected before the next (docs/wireup.md "Dynamic processes"):
 *   self      every parent rank spawns 1 child from MPI_COMM_SELF, at the same time;
 *   world M   MPI_COMM_WORLD spawns M = 1, 2, 3 children collectively, root 0 (the other ranks
 *             pass no command, as only the root's arguments count);
 *   multiple  MPI_Comm_spawn_multiple of two apps with their own argv and info: app 0 (1 process)
 *             info "wdir"=WDIR, app 1 (2 processes) info "env"="SPAWN_PATTERN_ENV=app1";
 *   many      NMANY (argv[1], default 5) more spawns of 1 child from MPI_COMM_WORLD.
 * A child ("child TAG [WDIR|-] [ENV|-]") checks its working directory and SPAWN_PATTERN_ENV when
 * given, and under jdvm that its shared-memory segment directory is its own, and sends {TAG, rank, appnum} (TAG -1 if a check failed) to the parents' root through the
 * intercommunicator, which checks every child's answer. Parent ranks print
 * "OK mpi_spawn_patterns <pattern> rank=R children=C" per pattern and
 * "OK mpi_spawn_patterns done rank=R spawns=S"; anything wrong prints FAIL and exits 1.
 * Every process ends itself by SIGALRM after 60 s, so a hang is an error, not a stuck test.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *self_path;

static int child(int argc, char **argv)
{
    MPI_Comm parent;
    int rank, size, flag, *appnum, msg[3];
    char cwd[4096];
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        printf("FAIL mpi_spawn_patterns child has no parent\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    msg[0] = atoi(argv[2]);
    msg[1] = rank;
    msg[2] = flag ? *appnum : -1;
    if (argc > 3 && strcmp(argv[3], "-") != 0
        && (getcwd(cwd, sizeof cwd) == NULL || strcmp(cwd, argv[3]) != 0)) {
        printf("FAIL mpi_spawn_patterns child tag=%s cwd=%s wanted=%s\n", argv[2], cwd, argv[3]);
        msg[0] = -1;
    }
    const char *env = getenv("SPAWN_PATTERN_ENV");
    if (argc > 4 && strcmp(argv[4], "-") != 0 && (env == NULL || strcmp(env, argv[4]) != 0)) {
        printf("FAIL mpi_spawn_patterns child tag=%s env=%s wanted=%s\n", argv[2],
               env ? env : "(unset)", argv[4]);
        msg[0] = -1;
    }
    /* under jdvm: Open MPI's shared-memory segment in the child's own directory, whatever
     * directory the parent's environment passed on (two children of a job on two virtual nodes
     * would otherwise share one segment file) */
    const char *shm = getenv("OMPI_MCA_btl_vader_backing_directory");
    const char *ns = getenv("PMIX_NAMESPACE");
    if (shm != NULL && ns != NULL && getenv("JDVM_NODE") != NULL) {
        char own[512];
        snprintf(own, sizeof own, "/%s/%d", ns, rank);
        size_t n = strlen(shm), k = strlen(own);
        if (n < k || strcmp(shm + n - k, own) != 0) {
            printf("FAIL mpi_spawn_patterns child tag=%s segment directory=%s\n", argv[2], shm);
            msg[0] = -1;
        }
    }
    fflush(stdout);
    MPI_Send(msg, 3, MPI_INT, 0, 21, parent);
    MPI_Comm_disconnect(&parent);
    return msg[0] < 0;
}

/* Root of comm: collects every child's {tag, rank, appnum}; child r of app a must say tags[a]. */
static int collect(MPI_Comm comm, MPI_Comm inter, const int *tags, const int *per_app)
{
    int me, remote, ok = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_remote_size(inter, &remote);
    if (me == 0) {
        int seen[64] = {0};
        for (int i = 0; i < remote; i++) {
            int msg[3], app = 0, first = 0;
            MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE, 21, inter, MPI_STATUS_IGNORE);
            while (msg[1] >= first + per_app[app]) {
                first += per_app[app++];
            }
            if (msg[0] != tags[app] || msg[2] != app || msg[1] >= 64 || seen[msg[1]]++) {
                printf("FAIL mpi_spawn_patterns answer tag=%d rank=%d appnum=%d wanted tag=%d\n",
                       msg[0], msg[1], msg[2], tags[app]);
                ok = 0;
            }
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    return ok;
}

static int finish(MPI_Comm comm, MPI_Comm *inter, const char *pattern, int wanted,
                  const int *tags, const int *per_app)
{
    int remote, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_remote_size(*inter, &remote);
    int ok = collect(comm, *inter, tags, per_app) && remote == wanted;
    MPI_Comm_disconnect(inter);
    printf("%s mpi_spawn_patterns %s rank=%d children=%d\n", ok ? "OK" : "FAIL", pattern, rank,
           remote);
    fflush(stdout);
    return ok;
}

static int spawn_world(int m, int tag, const char *pattern)
{
    int rank, errs[8];
    char tagstr[16];
    MPI_Comm inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(tagstr, sizeof tagstr, "%d", tag);
    char *cargv[] = {"child", tagstr, NULL};
    int rc = rank == 0 ? MPI_Comm_spawn(self_path, cargv, m, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                        &inter, errs)
                       : MPI_Comm_spawn(NULL, NULL, 0, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                                        errs);
    if (rc != MPI_SUCCESS) {
        printf("FAIL mpi_spawn_patterns %s rank=%d spawn rc=%d\n", pattern, rank, rc);
        return 0;
    }
    int per_app[1] = {m};
    return finish(MPI_COMM_WORLD, &inter, pattern, m, &tag, per_app);
}

static int spawn_self(void)
{
    int errs[1], tag = 1, one[1] = {1};
    MPI_Comm inter;
    char *cargv[] = {"child", "1", NULL};
    if (MPI_Comm_spawn(self_path, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, errs)
        != MPI_SUCCESS) {
        printf("FAIL mpi_spawn_patterns self spawn\n");
        return 0;
    }
    return finish(MPI_COMM_SELF, &inter, "self", 1, &tag, one);
}

static int spawn_multiple(const char *wdir)
{
    char *cmds[2] = {(char *) self_path, (char *) self_path};
    char *argv0[] = {"child", "40", (char *) wdir, "-", NULL};
    char *argv1[] = {"child", "41", "-", "app1", NULL};
    char **argvs[2] = {argv0, argv1};
    int maxprocs[2] = {1, 2}, errs[3], tags[2] = {40, 41}, rank;
    MPI_Info infos[2];
    MPI_Comm inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&infos[0]);
    MPI_Info_set(infos[0], "wdir", (char *) wdir);
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "env", "SPAWN_PATTERN_ENV=app1");
    int rc = MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter,
                                     errs);
    MPI_Info_free(&infos[0]);
    MPI_Info_free(&infos[1]);
    if (rc != MPI_SUCCESS) {
        printf("FAIL mpi_spawn_patterns multiple rank=%d spawn rc=%d\n", rank, rc);
        return 0;
    }
    return finish(MPI_COMM_WORLD, &inter, "multiple", 3, tags, maxprocs);
}

int main(int argc, char **argv)
{
    int rank, ok = 1, spawns = 0;
    char wdir[4096];
    alarm(60);
    MPI_Init(&argc, &argv);
    if (argc > 2 && strcmp(argv[1], "child") == 0) {
        int rc = child(argc, argv);
        MPI_Finalize();
        return rc;
    }
    self_path = argv[0];
    int nmany = argc > 1 ? atoi(argv[1]) : 5;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* a directory that is not the parent's own: its binary's */
    snprintf(wdir, sizeof wdir, "%s", self_path);
    *strrchr(wdir, '/') = '\0';

    ok &= spawn_self();
    spawns++;
    for (int m = 1; m <= 3; m++) {
        char pattern[16];
        snprintf(pattern, sizeof pattern, "world%d", m);
        ok &= spawn_world(m, 10 + m, pattern);
        spawns++;
    }
    ok &= spawn_multiple(wdir);
    spawns++;
    for (int i = 0; i < nmany; i++) {
        ok &= spawn_world(1, 50 + i, "many");
        spawns++;
    }
    printf("%s mpi_spawn_patterns done rank=%d spawns=%d\n", ok ? "OK" : "FAIL", rank, spawns);
    fflush(stdout);
    MPI_Finalize();
    return ok ? 0 : 1;
}
