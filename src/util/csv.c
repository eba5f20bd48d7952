#include "util/csv.h"
#include <string.h>

static bool needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
                                            s[n - 1] == '\t'));
}

void csv_field(FILE *out, const char *s, bool last)
{
    if (!needs_quotes(s)) {
        fputs(s, out);
    } else {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    }
    fputc(last ? '\n' : ',', out);
}
