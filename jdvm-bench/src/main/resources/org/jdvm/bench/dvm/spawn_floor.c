/*
 * The floor jdvm bench compares itself with: posix_spawn /bin/true and reap it, as fast as this
 * machine allows, from C.
 *
 *   spawn_floor latency N      one thread, N spawn+wait; prints one line of N latencies in ns
 *   spawn_floor rate T S       T threads for S seconds; prints the number of spawn+waits done
 */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;
static volatile int stop;
static long counts[256];

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int spawn_wait(void) {
  char *argv[] = {"/bin/true", NULL};
  pid_t pid;
  int status;
  if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ) != 0) return -1;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return 0;
}

static void *worker(void *arg) {
  long i = (long)arg;
  while (!stop) {
    if (spawn_wait() == 0) counts[i]++;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "latency") == 0) {
    int n = atoi(argv[2]);
    for (int i = 0; i < 20; i++) spawn_wait();
    for (int i = 0; i < n; i++) {
      long t0 = now_ns();
      if (spawn_wait() != 0) return 1;
      printf("%ld%c", now_ns() - t0, i + 1 < n ? ' ' : '\n');
    }
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "rate") == 0) {
    int t = atoi(argv[2]), s = atoi(argv[3]);
    if (t < 1 || t > 256 || s < 1) return 2;
    pthread_t th[256];
    long t0 = now_ns();
    for (long i = 0; i < t; i++) pthread_create(&th[i], NULL, worker, (void *)i);
    struct timespec d = {s, 0};
    nanosleep(&d, NULL);
    stop = 1;
    long total = 0;
    for (int i = 0; i < t; i++) {
      pthread_join(th[i], NULL);
      total += counts[i];
    }
    printf("%ld %ld\n", total, now_ns() - t0);
    return 0;
  }
  fprintf(stderr, "usage: spawn_floor latency N | rate THREADS SECONDS\n");
  return 2;
}
