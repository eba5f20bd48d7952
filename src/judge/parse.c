/* rdmarun judge's readers' dispatcher: a file's text into lines, then each
 * tool's reader in turn; and the helpers they share. */
#include "judge/results.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 200000

/* The text's lines, in place (NUL for each newline). */
static void cut_lines(char *text, struct lines *l)
{
    size_t cap = 0;
    for (char *p = text; *p && l->n < MAX_LINES;) {
        char *nl = strchr(p, '\n');
        if (l->n == cap) {
            cap = cap ? cap * 2 : 256;
            l->v = xrealloc(l->v, cap * sizeof(*l->v));
        }
        l->v[l->n++] = p;
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
}

size_t results_parse(struct result_file *rf, char *text, const char *name)
{
    size_t skip = strspn(text, " \t\r\n");
    if (text[skip] == '{')   /* nccl-tests' -J file */
        return parse_nccl_json(rf, text + skip);
    struct lines l = {0};
    cut_lines(text, &l);
    size_t n = parse_nccl_tests(rf, &l, name);
    if (!n)
        n = parse_perftest(rf, &l);
    if (!n)
        n = parse_ucx_perftest(rf, &l);
    if (!n)
        n = parse_osu(rf, &l);
    if (!n)
        n = parse_imb(rf, &l);
    if (!n)
        n = parse_sweep(rf, &l);
    free(l.v);
    return n;
}
