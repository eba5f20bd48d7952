/* Reading a saved plan (rdmarun --dry-run --json) back, with json-c. Kept
 * apart from the JSON writer (util/json.h), whose names json-c also uses. */
#include "compare/plan_file.h"
#include "util/xalloc.h"
#include <json-c/json.h>

char *plan_file_string(const char *path, const char *key)
{
    json_object *plan = json_object_from_file(path), *v = NULL;
    char *out = NULL;
    if (plan && json_object_object_get_ex(plan, key, &v) && json_object_is_type(v, json_type_string))
        out = xstrdup(json_object_get_string(v));
    json_object_put(plan);
    return out;
}
