#include "util/size.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

bool parse_size(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    uint64_t v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    static const struct { const char *suffix; unsigned shift; } units[] = {
        {"", 0}, {"b", 0},
        {"k", 10}, {"kb", 10}, {"kib", 10},
        {"m", 20}, {"mb", 20}, {"mib", 20},
        {"g", 30}, {"gb", 30}, {"gib", 30},
        {"t", 40}, {"tb", 40}, {"tib", 40},
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++) {
        if (strcasecmp(s, units[i].suffix) != 0)
            continue;
        if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
            return false;
        *out = v << units[i].shift;
        return true;
    }
    return false;
}
