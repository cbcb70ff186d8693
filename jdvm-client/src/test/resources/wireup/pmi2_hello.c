/*
 * pmi2_hello.c - a PMI-2 client's whole wire-up, through Slurm's libpmi2 (Debian's libpmi2-0-dev:
 * gcc -o pmi2_hello pmi2_hello.c -lpmi2), which finds its server by PMI_PORT and claims PMI_ID.
 * Every rank: PMI2_Init; puts "bc-<rank>" (a value with ';' in it) and the node attribute
 * "seen-<rank>"; KVS_Fence; gets every rank's "bc-<r>" and checks it; reads PMI_process_mapping;
 * reads back its own node attribute (waiting, as MPICH waits for its node root's); rank 0
 * publishes "jdvm-pmi2-<size>" and, after a second fence, every rank looks it up; after a third
 * rank 0 unpublishes it. Prints
 * "OK pmi2_hello rank=R size=N appnum=A map=<PMI_process_mapping> seen=<value> port=<looked up>"
 * (or FAIL ... with the step that failed); exit 0 only if everything matched.
 */
#include <slurm/pmi2.h>
#include <stdio.h>
#include <string.h>

#define FAIL(step)                                                                 \
    do {                                                                           \
        printf("FAIL pmi2_hello rank=%d step=%s\n", rank, step);                   \
        fflush(stdout);                                                            \
        return 1;                                                                  \
    } while (0)

int main(void)
{
    int spawned, size = 0, rank = -1, appnum = -1, found = 0, len = 0;
    char key[64], value[1024], map[1024] = "", seen[1024] = "", port[1024] = "", svc[64];
    if (PMI2_Init(&spawned, &size, &rank, &appnum) != PMI2_SUCCESS)
        FAIL("init");
    snprintf(key, sizeof key, "bc-%d", rank);
    snprintf(value, sizeof value, "card;of;rank-%d", rank);
    if (PMI2_KVS_Put(key, value) != PMI2_SUCCESS)
        FAIL("put");
    snprintf(key, sizeof key, "seen-%d", rank);
    if (PMI2_Info_PutNodeAttr(key, "yes") != PMI2_SUCCESS)
        FAIL("putnodeattr");
    if (PMI2_KVS_Fence() != PMI2_SUCCESS)
        FAIL("fence");
    for (int r = 0; r < size; r++) {
        char want[64];
        snprintf(key, sizeof key, "bc-%d", r);
        snprintf(want, sizeof want, "card;of;rank-%d", r);
        if (PMI2_KVS_Get(NULL, PMI2_ID_NULL, key, value, sizeof value, &len) != PMI2_SUCCESS
            || strcmp(value, want) != 0)
            FAIL("get");
    }
    if (PMI2_Info_GetJobAttr("PMI_process_mapping", map, sizeof map, &found) != PMI2_SUCCESS
        || !found)
        FAIL("jobattr");
    snprintf(key, sizeof key, "seen-%d", rank);
    if (PMI2_Info_GetNodeAttr(key, seen, sizeof seen, &found, 1) != PMI2_SUCCESS || !found)
        FAIL("getnodeattr");
    snprintf(svc, sizeof svc, "jdvm-pmi2-%d", size);
    if (rank == 0 && PMI2_Nameserv_publish(svc, NULL, "port-of-rank-0") != PMI2_SUCCESS)
        FAIL("publish");
    if (PMI2_KVS_Fence() != PMI2_SUCCESS)
        FAIL("fence2");
    if (PMI2_Nameserv_lookup(svc, NULL, port, sizeof port) != PMI2_SUCCESS)
        FAIL("lookup");
    if (PMI2_KVS_Fence() != PMI2_SUCCESS)
        FAIL("fence3");
    if (rank == 0 && PMI2_Nameserv_unpublish(svc, NULL) != PMI2_SUCCESS)
        FAIL("unpublish");
    printf("OK pmi2_hello rank=%d size=%d appnum=%d map=%s seen=%s port=%s\n", rank, size, appnum,
           map, seen, port);
    fflush(stdout);
    PMI2_Finalize();
    return 0;
}
