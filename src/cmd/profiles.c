/* rdmarun profiles [show NAME]: the profiles on the search path, and one
 * profile's merged values with the origin of each. */
#include "cmd/commands.h"
#include "profile/profile.h"
#include "profile/schema.h"
#include "util/json.h"
#include "profile/ucx_config.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each listed profile's first error, or NULL when it loads and its values
 * are valid (as a job checks them, its parents included; the environment's
 * UCX_* and --set are the job's, left out). */
static char **load_errors(const struct profile_info *list, size_t n, const struct strvec *dirs)
{
    char **errors = xcalloc(n ? n : 1, sizeof(*errors));
    for (size_t i = 0; i < n; i++) {
        struct profile p;
        msg_capture(&errors[i]);
        int rc = profile_load(list[i].path, dirs, &p);
        if (!rc)
            rc = profile_validate(&p);
        msg_capture(NULL);
        profile_free(&p);
        if (rc && !errors[i])
            errors[i] = xasprintf("cannot be loaded (status %d)", rc);
        else if (!rc) {
            free(errors[i]);
            errors[i] = NULL;
        }
    }
    return errors;
}

static int list_profiles(const struct cmdline *cl, const struct strvec *dirs)
{
    struct profile_info *list;
    size_t n;
    profile_list(dirs, &list, &n);
    char **errors = load_errors(list, n, dirs);
    size_t broken = 0;
    for (size_t i = 0; i < n; i++)
        broken += errors[i] && !list[i].shadowed;
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
            json_string(&j, "error", errors[i]);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_finish(&j);
    } else if (n == 0) {
        char *path = sv_join(dirs, ":");
        rr_warn("no profiles found (searched %s)", path);
        free(path);
    } else {
        /* Columns as wide as their widest entry. */
        int wname = 4, wdesc = 0;
        for (size_t i = 0; i < n; i++) {
            int a = (int)strlen(list[i].name);
            int b = list[i].description ? (int)strlen(list[i].description) : 0;
            wname = a > wname ? a : wname;
            wdesc = b > wdesc ? b : wdesc;
        }
        for (size_t i = 0; i < n; i++) {
            printf("%-*s  %-*s  %s%s\n", wname, list[i].name, wdesc,
                   list[i].description ? list[i].description : "", list[i].path,
                   list[i].shadowed ? " (shadowed)" : "");
            if (errors[i])
                printf("%-*s  %s: %s\n", wname, "", list[i].shadowed ? "broken too" : "BROKEN",
                       errors[i]);
        }
    }
    if (broken && !cl->json)
        rr_warn("%zu profile%s cannot be loaded (marked BROKEN, with the first error)",
                broken, broken == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        free(errors[i]);
    free(errors);
    profile_info_free(list, n);
    return broken ? RR_EX_CONFIG : 0;
}

/* --keys: every SECTION.KEY --set takes: the fixed keys, then the
 * variables of the installed UCX and those of NCCL rdmarun knows ([mpi]
 * and [env] take any name). */
static int list_keys(void)
{
    for (size_t s = 0; s < schema_nsections; s++) {
        const struct sectiondef *sec = &schema_sections[s];
        if (sec->keyset == KEYS_FIXED) {
            for (const struct keydef *k = sec->keys; k->name; k++)
                printf("%s.%s\n", sec->name, k->name);
        } else if (sec->names) {
            struct strvec names = {0};
            sec->names(&names);
            for (size_t i = 0; i < names.n; i++)
                printf("%s.%s\n", sec->name, names.v[i]);
            sv_free(&names);
        }
    }
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
    int rc = cl->keys ? list_keys()
             : cl->show_name ? show_profile(cl, &dirs) : list_profiles(cl, &dirs);
    sv_free(&dirs);
    return rc;
}
