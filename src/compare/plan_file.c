/* Reading a saved plan (rdmarun --dry-run --json) back, with json-c. Kept
 * apart from the JSON writer (util/json.h), whose names json-c also uses. */
#include "compare/plan_file.h"
#include "util/xalloc.h"
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

char *plan_file_string(const char *path, const char *key)
{
    json_object *plan = json_object_from_file(path), *v = NULL;
    char *out = NULL;
    if (plan && json_object_object_get_ex(plan, key, &v) && json_object_is_type(v, json_type_string))
        out = xstrdup(json_object_get_string(v));
    json_object_put(plan);
    return out;
}

void plan_file_errors(const char *path, struct strvec *out)
{
    json_object *plan = json_object_from_file(path), *v = NULL;
    if (plan && json_object_object_get_ex(plan, "errors", &v) &&
        json_object_is_type(v, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(v); i++)
            sv_push(out, json_object_get_string(json_object_array_get_idx(v, i)));
    } else {
        FILE *f = fopen(path, "r");
        char line[4096];
        while (f && fgets(line, sizeof(line), f)) {
            const char *e = strstr(line, "error: ");
            line[strcspn(line, "\n")] = '\0';
            if (e)
                sv_push(out, e + strlen("error: "));
        }
        if (f)
            fclose(f);
    }
    json_object_put(plan);
}
