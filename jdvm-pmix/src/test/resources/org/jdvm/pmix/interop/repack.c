/*
 * jdvm interop helper: the real libpmix judges bytes jdvm produced.
 *
 * Reads lines from stdin and answers each on stdout:
 *   "U <type> <count> <hex>"  unpack <count> values of <type> from the bytes with
 *                             PMIx_Data_unpack, pack them again with PMIx_Data_pack and print
 *                             "OK <hex>", or "ERR <where> <status>"
 *   "F <16 hex digits>"       the bits of a double: print "F " and printf("%f") of it
 * The buffer mode is the library's default, or fully described when the environment says
 * PMIX_BFROP_BUFFER_TYPE=PMIX_BFROP_BUFFER_FULLY_DESC.
 *
 * Build: gcc -o repack repack.c $(pkg-config --cflags --libs pmix)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmix_tool.h>

static int nibble(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static void print_hex(const char *prefix, const char *p, size_t n)
{
    fputs(prefix, stdout);
    for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char) p[i]);
    putchar('\n');
}

static void repack(char *line)
{
    int type, count;
    char *hex = malloc(strlen(line) + 1);
    if (3 != sscanf(line, "U %d %d %s", &type, &count, hex)) {
        printf("ERR parse 0\n");
        free(hex);
        return;
    }
    size_t n = strlen(hex) / 2;
    char *bytes = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) bytes[i] = (char) (nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    free(hex);

    pmix_data_buffer_t in, out;
    pmix_byte_object_t bo = {.bytes = bytes, .size = n};
    PMIX_DATA_BUFFER_CONSTRUCT(&in);
    PMIx_Data_load(&in, &bo);
    void *values = calloc(count > 0 ? count : 1, 8192);
    int32_t m = count;
    pmix_status_t rc = PMIx_Data_unpack(NULL, &in, values, &m, (pmix_data_type_t) type);
    if (PMIX_SUCCESS != rc) {
        printf("ERR unpack %d\n", rc);
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&out);
    rc = PMIx_Data_pack(NULL, &out, values, m, (pmix_data_type_t) type);
    if (PMIX_SUCCESS != rc) {
        printf("ERR pack %d\n", rc);
        return;
    }
    print_hex("OK ", out.base_ptr, out.bytes_used);
}

int main(void)
{
    pmix_info_t info;
    pmix_proc_t me;
    bool yes = true;
    char *line = NULL;
    size_t cap = 0;

    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    if (PMIX_SUCCESS != PMIx_tool_init(&me, &info, 1)) {
        printf("ERR init 0\n");
        return 1;
    }
    while (getline(&line, &cap, stdin) > 0) {
        if ('F' == line[0]) {
            unsigned long long bits = strtoull(line + 2, NULL, 16);
            double d;
            memcpy(&d, &bits, sizeof(d));
            printf("F %f\n", d);
        } else {
            repack(line);
        }
        fflush(stdout);
    }
    PMIx_tool_finalize();
    return 0;
}
