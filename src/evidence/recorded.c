/* What a run recorded of itself in its verdict.json (json-c: kept apart
 * from util/json.h's writer, whose names it shares). */
#include "evidence/evidence.h"
#include "util/fs.h"
#include "util/xalloc.h"
#include <json-c/json.h>
#include <stdlib.h>

/* What a run directory's verdict.json says the run expected (the plan's
 * expect, written by the supervisor), into ev; a file that is not a
 * regular file (never a FIFO or a device), is over 1 MiB or holds no known
 * word says nothing. */
void evidence_recorded_expect(const char *dir, struct evidence *ev, char **expect, char **why)
{
    *expect = *why = NULL;
    if (!evidence_is_run_dir(dir))
        return;
    char *path = xasprintf("%s/verdict.json", dir);
    size_t len;
    char *text = read_input(path, 1 << 20, &len);
    free(path);
    json_object *o = text ? json_tokener_parse(text) : NULL, *e, *r;
    free(text);
    if (o && json_object_object_get_ex(o, "expect", &e) && json_object_is_type(e, json_type_string) &&
        name_index(expectation_names, json_object_get_string(e)) >= 0) {
        *expect = xstrdup(json_object_get_string(e));
        if (json_object_object_get_ex(o, "expect_reason", &r) &&
            json_object_is_type(r, json_type_string))
            *why = xstrdup(json_object_get_string(r));
        ev->expect = *expect;
        ev->expect_reason = *why;
    }
    json_object_put(o);
}
