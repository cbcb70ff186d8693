/*
 * pmi_spawn.c - MPI_Comm_spawn's PMI side, through MPICH's own simple PMI-1 client. Debian's
 * MPICH 4.0.2 is built for ch4:ucx, whose MPI_Comm_spawn fails in MPID_Open_port before it asks
 * the launcher anything (ucx_spawn.c answers "**ucx_nm_notsupported"), under mpiexec.mpich too;
 * the PMI calls MPI_Comm_spawn makes after it are these. Linked against libmpich.a, whose
 * PMI_* functions are the client MPICH uses (the shared library hides them):
 *     gcc -o pmi_spawn pmi_spawn.c -Wl,-Bstatic -lmpich -Wl,-Bdynamic
 * Parent (not spawned): PMI_Spawn_multiple of two apps as one request, as MPI_Comm_spawn_multiple
 * makes it: 2 copies of itself with the arguments "child" "two words", and 1 with "child" "b",
 * the preput key PARENT_ROOT_PORT_NAME (what MPICH's children read to find their parent) and the
 * info key wdir=/tmp for the second app. Prints "OK pmi_spawn parent rank=R size=N".
 * Children (PMI_SPAWNED=1): read PARENT_ROOT_PORT_NAME from their job's key-value space and print
 * "OK pmi_spawn child rank=R size=S appnum=A args=<argv[1]>,<argv[2]> preput=P cwd=D".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *key;
    char *val;
} PMI_keyval_t;

int PMI_Init(int *spawned);
int PMI_Get_rank(int *rank);
int PMI_Get_size(int *size);
int PMI_Get_appnum(int *appnum);
int PMI_KVS_Get_my_name(char *kvsname, int length);
int PMI_KVS_Get(const char *kvsname, const char *key, char *value, int length);
int PMI_Spawn_multiple(int count, const char *cmds[], const char **argvs[], const int maxprocs[],
                       const int info_keyval_sizes[], const PMI_keyval_t *info_keyval_vectors[],
                       int preput_keyval_size, const PMI_keyval_t preput_keyval_vector[],
                       int errors[]);
int PMI_Finalize(void);

int main(int argc, char **argv)
{
    int spawned = -1, rank = -1, size = -1, appnum = -1, ok;
    char kvs[256] = "";
    if (PMI_Init(&spawned) != 0) {
        printf("FAIL pmi_spawn PMI_Init\n");
        return 1;
    }
    PMI_Get_rank(&rank);
    PMI_Get_size(&size);
    PMI_Get_appnum(&appnum);
    PMI_KVS_Get_my_name(kvs, sizeof kvs);
    if (spawned) {
        char port[1024] = "", cwd[1024] = "";
        ok = PMI_KVS_Get(kvs, "PARENT_ROOT_PORT_NAME", port, sizeof port) == 0;
        if (getcwd(cwd, sizeof cwd) == NULL) {
            strcpy(cwd, "?");
        }
        printf("%s pmi_spawn child rank=%d size=%d appnum=%d args=%s,%s preput=%s cwd=%s\n",
               ok ? "OK" : "FAIL", rank, size, appnum, argc > 1 ? argv[1] : "",
               argc > 2 ? argv[2] : "", port, cwd);
    } else {
        const char *cmds[] = {argv[0], argv[0]};
        const char *first[] = {"child", "two words", NULL};
        const char *second[] = {"child", "b", NULL};
        const char **argvs[] = {first, second};
        int maxprocs[] = {2, 1};
        PMI_keyval_t wdir[] = {{"wdir", "/tmp"}};
        int info_sizes[] = {0, 1};
        const PMI_keyval_t *infos[] = {NULL, wdir};
        char port[] = "tag#0$port#42$";
        PMI_keyval_t preput[] = {{"PARENT_ROOT_PORT_NAME", port}};
        int errors[3];
        int rc = PMI_Spawn_multiple(2, cmds, argvs, maxprocs, info_sizes, infos, 1, preput, errors);
        ok = rc == 0;
        printf("%s pmi_spawn parent rank=%d size=%d rc=%d\n", ok ? "OK" : "FAIL", rank, size, rc);
    }
    fflush(stdout);
    PMI_Finalize();
    return ok ? 0 : 1;
}
