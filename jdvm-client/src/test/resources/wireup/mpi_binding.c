/*
 * Prints, per rank, what Open MPI knows of where the ranks sit: its cpus (Cpus_allowed_list), and
 * the world ranks of each group MPI_Comm_split_type makes with it: shared memory (the node), and
 * Open MPI's own split types built from the peers' locality (socket, L3 cache, core, hardware
 * thread), which it computes from PMIX_LOCALITY_STRING. Run under `jdvm run` and under
 * `mpirun.openmpi` with the same options, the lines must be the same. One line per rank:
 *
 *   rank R cpus LIST shared A,B socket A,B l3 A,B core A,B hwthread A,B
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cpus(char *out, size_t n) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[4096];
  snprintf(out, n, "?");
  if (f == NULL) return;
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
      char *v = line + 18;
      while (*v == ' ' || *v == '\t') v++;
      v[strcspn(v, "\n")] = '\0';
      snprintf(out, n, "%s", v);
    }
  }
  fclose(f);
}

/* The world ranks of the group split_type puts this rank in, comma-separated. */
static void group(int type, char *out, size_t n) {
  MPI_Comm c;
  int size, me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_split_type(MPI_COMM_WORLD, type, me, MPI_INFO_NULL, &c);
  if (c == MPI_COMM_NULL) {
    snprintf(out, n, "none");
    return;
  }
  MPI_Comm_size(c, &size);
  int *ranks = malloc(sizeof(int) * size);
  MPI_Allgather(&me, 1, MPI_INT, ranks, 1, MPI_INT, c);
  out[0] = '\0';
  for (int i = 0; i < size; i++) {
    size_t len = strlen(out);
    snprintf(out + len, n - len, "%s%d", i ? "," : "", ranks[i]);
  }
  free(ranks);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  int rank, size;
  char where[256], shared[256], sock[256], l3[256], core[256], ht[256], line[2048];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  cpus(where, sizeof where);
  group(MPI_COMM_TYPE_SHARED, shared, sizeof shared);
  group(OMPI_COMM_TYPE_SOCKET, sock, sizeof sock);
  group(OMPI_COMM_TYPE_L3CACHE, l3, sizeof l3);
  group(OMPI_COMM_TYPE_CORE, core, sizeof core);
  group(OMPI_COMM_TYPE_HWTHREAD, ht, sizeof ht);
  snprintf(line, sizeof line, "rank %d cpus %s shared %s socket %s l3 %s core %s hwthread %s", rank,
           where, shared, sock, l3, core, ht);
  /* rank order on stdout: each rank prints in turn */
  for (int r = 0; r < size; r++) {
    if (r == rank) {
      printf("%s\n", line);
      fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
