/* libFuzzer target: the profile parser (inih with rdmarun's reader, names,
 * duplicates, inheritance lookups) and the value checks; then the round
 * trip 'rdmarun profiles show' promises: a valid profile, written out
 * (profile_write) and read back, has the same keys and values, each on a
 * line whose comment names the origin the first reading gave it. */
#include "profile/profile.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(const char *what, const struct entry *e, const char *dump)
{
    fprintf(stdout, "profile round trip: %s: [%s] %s = '%s'\n--- written:\n%s---\n", what,
            e ? e->section : "", e ? e->key : "", e ? e->value : "", dump);
    fflush(stdout);
    abort();
}

/* Line `n` (from 1) of text, without its newline, or NULL. */
static const char *line_of(const char *text, int n, size_t *len)
{
    for (int i = 1; i < n && text; i++)
        if ((text = strchr(text, '\n')))
            text++;
    if (!text || !*text)
        return NULL;
    *len = strcspn(text, "\n");
    return text;
}

static void round_trip(const struct profile *p, const char *path, const struct strvec *dirs)
{
    char *dump = NULL;
    size_t dump_len = 0;
    FILE *m = open_memstream(&dump, &dump_len);
    profile_write(p, m);
    fclose(m);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(dump);
        return;
    }
    fwrite(dump, 1, dump_len, f);
    fclose(f);
    struct profile q;
    if (profile_load(path, dirs, &q) != 0)
        fail("the written profile does not load", NULL, dump);
    for (size_t i = 0; i < p->n; i++) {
        const struct entry *e = &p->e[i];
        if (e->kind == ORIGIN_DEFAULT)
            continue;
        const struct entry *back = profile_get(&q, e->section, e->key);
        if (!back || back->kind != ORIGIN_FILE)
            fail("lost", e, dump);
        if (strcmp(back->value, e->value) != 0)
            fail("value changed", e, dump);
        /* its origin ends its line, or (a long value) is the line before */
        char *origin = entry_origin(e);
        size_t len = 0, before = 0, olen = strlen(origin);
        bool here = back->file && strcmp(back->file, path) == 0;
        const char *line = here ? line_of(dump, back->line, &len) : NULL;
        const char *prev = here ? line_of(dump, back->line - 1, &before) : NULL;
        bool at_end = line && len >= olen + 3 && strncmp(line + len - olen - 3, " ; ", 3) == 0 &&
                      strncmp(line + len - olen, origin, olen) == 0;
        bool above = prev && before == olen + 2 && strncmp(prev, "; ", 2) == 0 &&
                     strncmp(prev + 2, origin, olen) == 0;
        if (!at_end && !above)
            fail("origin not on its line", e, dump);
        free(origin);
    }
    for (size_t i = 0; i < q.n; i++)
        if (q.e[i].kind != ORIGIN_DEFAULT && !profile_get(p, q.e[i].section, q.e[i].key))
            fail("appeared", &q.e[i], dump);
    profile_free(&q);
    free(dump);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], written[80];
    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/rdmarun-fuzz-%d.ini", (int)getpid());
        snprintf(written, sizeof(written), "/tmp/rdmarun-fuzz-%d-written.ini", (int)getpid());
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct strvec dirs = {0};
    sv_push(&dirs, "/nonexistent");
    struct profile p;
    if (profile_load(path, &dirs, &p) == 0 && profile_validate(&p) == 0)
        round_trip(&p, written, &dirs);
    profile_free(&p);
    sv_free(&dirs);
    return 0;
}
