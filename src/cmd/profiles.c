/* rdmarun profiles [show NAME]: the profiles on the search path, and one
 * profile's merged values with the origin of each. */
#include "cmd/commands.h"
#include "profile/profile.h"
#include "profile/schema.h"
#include "util/json.h"
#include "util/msg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list_profiles(const struct cmdline *cl, const struct strvec *dirs)
{
    struct profile_info *list;
    size_t n;
    profile_list(dirs, &list, &n);
    if (cl->json) {
        struct json j;
        json_init(&j, stdout);
        json_begin_array(&j, NULL);
        for (size_t i = 0; i < n; i++) {
            json_begin_object(&j, NULL);
            json_string(&j, "name", list[i].name);
            json_string(&j, "description", list[i].description);
            json_string(&j, "path", list[i].path);
            json_bool(&j, "shadowed", list[i].shadowed);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_finish(&j);
    } else if (n == 0) {
        char *path = sv_join(dirs, ":");
        rr_warn("no profiles found (searched %s)", path);
        free(path);
    } else {
        for (size_t i = 0; i < n; i++)
            printf("%-12s %-60s %s%s\n", list[i].name,
                   list[i].description ? list[i].description : "", list[i].path,
                   list[i].shadowed ? " (shadowed)" : "");
    }
    profile_info_free(list, n);
    return 0;
}

static int show_profile(const struct cmdline *cl, const struct strvec *dirs)
{
    struct profile p;
    int rc = profile_load_for_job(cl->show_name, dirs, &cl->sets, &p);
    if (rc) {
        profile_free(&p);
        return rc;
    }
    if (!cl->json) {
        profile_write(&p, stdout);
        profile_free(&p);
        return 0;
    }
    struct json j;
    json_init(&j, stdout);
    json_begin_object(&j, NULL);
    json_string(&j, "name", p.name);
    json_begin_array(&j, "files");
    for (size_t i = 0; i < p.files.n; i++)
        json_string(&j, NULL, p.files.v[i]);
    json_end_array(&j);
    json_begin_array(&j, "values");
    for (size_t s = 0; s < schema_nsections; s++) {
        for (size_t i = 0; i < p.n; i++) {
            const struct entry *e = &p.e[i];
            if (strcmp(e->section, schema_sections[s].name) != 0 || e->kind == ORIGIN_DEFAULT)
                continue;
            char *origin = entry_origin(e);
            json_begin_object(&j, NULL);
            json_string(&j, "section", e->section);
            json_string(&j, "key", e->key);
            json_string(&j, "value", e->value);
            json_string(&j, "origin", origin);
            json_end_object(&j);
            free(origin);
        }
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    profile_free(&p);
    return 0;
}


int cmd_profiles(const struct cmdline *cl)
{
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    int rc = cl->show_name ? show_profile(cl, &dirs) : list_profiles(cl, &dirs);
    sv_free(&dirs);
    return rc;
}
