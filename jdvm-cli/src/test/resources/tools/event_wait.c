/* Waits for one PMIx event of the code given as argv[1], then prints it and exits 0 (the tools
 * test: pevent's notification reaches a process that registered for it). */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int got = 0;

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                    size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
  printf("event %d from %s\n", status, source->nspace);
  fflush(stdout);
  got = 1;
  if (cbfunc != NULL) {
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
  }
}

int main(int argc, char **argv) {
  pmix_proc_t me;
  pmix_status_t code = argc > 1 ? atoi(argv[1]) : -111;
  if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
    return 2;
  }
  pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, handler, NULL, NULL);
  if (rc < 0) {
    fprintf(stderr, "register: %s\n", PMIx_Error_string(rc));
    return 3;
  }
  printf("registered\n");
  fflush(stdout);
  for (int i = 0; i < 6000 && !got; i++) { /* at most 60 s */
    usleep(10000);
  }
  PMIx_Finalize(NULL, 0);
  return got ? 0 : 1;
}
