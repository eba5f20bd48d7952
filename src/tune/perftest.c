/* ucx_perftest's CSV output (perftest.h). */
#include "tune/perftest.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool perftest_csv_header(const char *line)
{
    static const char *const fields[] = {"iterations", "_percentile_lat", "avg_lat", "overall_lat",
                                         "avg_bw", "overall_bw", "avg_mr", "overall_mr"};
    const char *p = line;
    for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
        size_t len = strcspn(p, ","), flen = strlen(fields[i]);
        /* The percentile's name carries -R's rank: "50.0_percentile_lat". */
        if (len < flen || strncmp(p + len - flen, fields[i], flen) != 0 ||
            (i != 1 && len != flen))
            return false;
        p += len;
        if (*p != (i + 1 < sizeof(fields) / sizeof(*fields) ? ',' : '\0'))
            return false;
        p += *p == ',';
    }
    return true;
}

bool perftest_csv_row(const char *line, struct perftest_result *r)
{
    double v[8];
    const char *p = line;
    for (int i = 0; i < 8; i++) {
        char *end;
        while (*p == ' ')
            p++;
        if (!(*p >= '0' && *p <= '9') && *p != '.')
            return false;
        errno = 0;
        v[i] = strtod(p, &end);
        if (errno || end == p || !isfinite(v[i]) || v[i] < 0)
            return false;
        p = end;
        while (*p == ' ')
            p++;
        if (*p != (i < 7 ? ',' : '\0'))
            return false;
        p += i < 7;
    }
    if (v[0] < 1 || v[0] > 1e15 || v[0] != floor(v[0]))
        return false;
    /* The overall columns: the whole run, not the last report's interval. */
    *r = (struct perftest_result){(long)v[0], v[3], v[5]};
    return true;
}
