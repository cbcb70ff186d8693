/*
 * pmix_logflood.c - a rank that floods PMIx_Log (docs/protocol.md "Bounds", log text): logs N lines
 * of 4 KiB to PMIX_LOG_SYSLOG (which always goes to the DVM's log) as fast as the server answers,
 * and prints "OK pmix_logflood ... logged=A refused=B" with how many were taken and how many were
 * refused with PMIX_ERR_OUT_OF_RESOURCE; any other status is a FAIL.
 * Usage: pmix_logflood N
 */
#include "pmixtest.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    static char text[4096];
    pt_init("pmix_logflood", 300);
    long logged = 0, refused = 0, other = 0;
    pmix_status_t last = PMIX_SUCCESS;
    for (long i = 0; i < n; i++) {
        snprintf(text, sizeof text, "flood %ld ", i);
        size_t at = strlen(text);
        memset(text + at, 'x', sizeof text - at - 1);
        text[sizeof text - 1] = '\0';
        pmix_info_t data;
        PMIX_INFO_LOAD(&data, PMIX_LOG_SYSLOG, text, PMIX_STRING);
        pmix_status_t rc = PMIx_Log(&data, 1, NULL, 0);
        PMIX_INFO_DESTRUCT(&data);
        if (rc == PMIX_SUCCESS) {
            logged++;
        } else if (rc == PMIX_ERR_OUT_OF_RESOURCE) {
            refused++;
        } else {
            other++;
            last = rc;
        }
    }
    pt_check(other == 0, "logged=%ld refused=%ld other=%ld (%s)", logged, refused, other,
             PMIx_Error_string(last));
    return pt_finish();
}
