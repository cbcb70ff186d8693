/*
 * pmix_log.c - PMIx_Log from a client (issue 10, "Log"). Every rank logs
 * "wireup log from rank R" to PMIX_LOG_STDERR; the launcher must show that line to the user (on
 * its stderr or the job's tool). Then it logs a PMIX_LOG_MSG byte object laid out exactly as Open
 * MPI 4.1's orte_show_help sends its error text (docs/wireup.md: four opal_dss items - filename,
 * topic, have-output flag, text - each a big-endian int32 count 1 and the value; strings as a
 * big-endian int32 length with the NUL, then the bytes), with the text "wireup help text from rank
 * R", and a PMIX_LOG_STDERR with PMIX_LOG_GENERATE_TIMESTAMP. Prints
 * "OK pmix_log rank=R ..." per call that returned SUCCESS; exit 0 only if all did.
 * Usage: pmix_log   (any number of ranks)
 */
#include "pmixtest.h"

static size_t put_be32(char *b, size_t n, uint32_t v)
{
    b[n] = (char) (v >> 24);
    b[n + 1] = (char) (v >> 16);
    b[n + 2] = (char) (v >> 8);
    b[n + 3] = (char) v;
    return n + 4;
}

/* One opal_dss_pack(buf, &s, 1, OPAL_STRING) of a non-described buffer. */
static size_t put_dss_string(char *b, size_t n, const char *s)
{
    uint32_t len = (uint32_t) strlen(s) + 1;
    n = put_be32(b, n, 1);
    n = put_be32(b, n, len);
    memcpy(b + n, s, len);
    return n + len;
}

int main(void)
{
    char text[128];
    pt_init("pmix_log", 30);
    pmix_info_t data, dir;
    snprintf(text, sizeof text, "wireup log from rank %u", pt_me.rank);
    PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Log(&data, 1, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "log stderr %s", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&data);

    char blob[512];
    size_t n = 0;
    snprintf(text, sizeof text, "wireup help text from rank %u\n", pt_me.rank);
    n = put_dss_string(blob, n, "help-wireup.txt");
    n = put_dss_string(blob, n, "wireup-topic");
    n = put_be32(blob, n, 1);
    blob[n++] = 1; /* have_output, an OPAL_INT8 */
    n = put_dss_string(blob, n, text);
    pmix_byte_object_t bo;
    bo.bytes = blob;
    bo.size = n;
    PMIX_INFO_LOAD(&data, PMIX_LOG_MSG, &bo, PMIX_BYTE_OBJECT);
    rc = PMIx_Log(&data, 1, NULL, 0);
    pt_check(rc == PMIX_SUCCESS, "log msg %s", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&data);

    bool yes = true;
    snprintf(text, sizeof text, "wireup stamped log from rank %u", pt_me.rank);
    PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, text, PMIX_STRING);
    PMIX_INFO_LOAD(&dir, PMIX_LOG_GENERATE_TIMESTAMP, &yes, PMIX_BOOL);
    rc = PMIx_Log(&data, 1, &dir, 1);
    pt_check(rc == PMIX_SUCCESS, "log stderr+timestamp %s", PMIx_Error_string(rc));
    return pt_finish();
}
