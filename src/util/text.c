#include "util/text.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

char *trim_dup(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    return xstrndup(s, len);
}

char *shell_quote(const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789@%+=:,./-_") == strlen(s))
        return xstrdup(s);
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *out = xmalloc(n), *o = out;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}

size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = xmalloc((lb + 1) * sizeof(*row));
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    size_t d = row[lb];
    free(row);
    return d;
}

const char *suggest(const char *word, const char *const *cands, size_t n)
{
    size_t limit = strlen(word) / 3;
    if (limit < 2)
        limit = 2;
    const char *best = NULL;
    size_t best_d = limit + 1, len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        /* The lengths alone bound the distance: most candidates end here. */
        size_t lc = strlen(cands[i]);
        if ((lc > len ? lc - len : len - lc) >= best_d)
            continue;
        size_t d = edit_distance(word, cands[i]);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best;
}

bool str_ieq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

char *to_var_name(const char *s)
{
    char *out = xstrdup(s);
    for (char *p = out; *p; p++)
        *p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
    return out;
}

bool parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"yes", "y", "true", "on", "1"};
    static const char *const no[] = {"no", "n", "false", "off", "0"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++) {
        if (str_ieq(s, yes[i])) {
            *out = true;
            return true;
        }
        if (str_ieq(s, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

bool is_printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

bool parse_seconds(const char *s, double max, double *out)
{
    char *end;
    if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
        return false;
    double v = strtod(s, &end);
    if (*end || !(v > 0) || v > max)
        return false;
    *out = v;
    return true;
}

bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    /* strtol would skip leading blanks and take a sign: a number starts with a digit or '-'. */
    if (!s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
        return false;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool parse_real(const char *s, double lo, double hi, double *out)
{
    /* as %g writes a number: digits, a sign, a point, an exponent; never
     * blanks, inf, nan or hexadecimal */
    if (!s || !*s || s[strspn(s, "0123456789+-.eE")] ||
        !(isdigit((unsigned char)*s) || ((*s == '-' || *s == '.') && s[1])))
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int version_cmp(const char *a, const char *b)
{
    for (;;) {
        char *ea, *eb;
        long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
        if (x != y)
            return x < y ? -1 : 1;
        if (*ea != '.' && *eb != '.')
            return 0;
        a = *ea == '.' ? ea + 1 : ea;   /* a missing part counts as 0 */
        b = *eb == '.' ? eb + 1 : eb;
    }
}

/* The length of the UTF-8 sequence at s (2-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || n > left)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* C1 controls (U+0080-U+009F, 8-bit CSI among them) are escaped too */
    if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
        return 0;
    return n;
}

char *term_safe(const char *s, size_t len, size_t max)
{
    FILE *m;
    char *out;
    size_t outlen;
    m = xmemstream_open(&out, &outlen);
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    for (; i < len && i < max;) {
        size_t n = u[i] >= 0x80 ? utf8_len(u + i, len - i) : 0;
        if (n) {
            fwrite(u + i, 1, n, m);
            i += n;
        } else if (u[i] == '\n' || u[i] == '\t' || u[i] == '\r') {
            fprintf(m, "\\%c", u[i] == '\n' ? 'n' : u[i] == '\t' ? 't' : 'r');
            i++;
        } else if (u[i] < 0x20 || u[i] >= 0x7f) {
            fprintf(m, "\\x%02x", u[i++]);
        } else {
            fputc(u[i++], m);
        }
    }
    if (i < len)
        fprintf(m, "... (%zu bytes)", len);
    xmemstream_close(m);
    return out;
}

uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

void random_word(char out[17])
{
    unsigned char b[8];
    if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
        /* no entropy yet (early boot): still unique to this process and moment */
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t v = (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 30) ^ ((uint64_t)getpid() << 48);
        for (size_t i = 0; i < sizeof(b); i++)
            b[i] = (unsigned char)(v >> (8 * i));
    }
    for (size_t i = 0; i < sizeof(b); i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF), or 0. */
size_t utf8_seq_len(const unsigned char *p)
{
    size_t n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
    if (!n || *p > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((*p == 0xe0 && p[1] < 0xa0) || (*p == 0xed && p[1] > 0x9f) ||
        (*p == 0xf0 && p[1] < 0x90) || (*p == 0xf4 && p[1] > 0x8f))
        return 0;
    return n;
}

bool utf8_valid(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x80)
            continue;
        size_t n = utf8_seq_len(p);
        if (!n)
            return false;
        p += n - 1;
    }
    return true;
}

int str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *lines_as_one(const char *text)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        n--;
    char *out = xmalloc(2 * n + 1), *w = out;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')
            continue;
        if (text[i] == '\n') {
            *w++ = ';';
            *w++ = ' ';
            while (i + 1 < n && text[i + 1] == ' ')
                i++;
        } else {
            *w++ = text[i] == '\r' ? ' ' : text[i];
        }
    }
    *w = '\0';
    return out;
}
