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

#define LIST_COLUMNS 80   /* a terminal's width, as ls and git wrap to */

/* text from `indent` on, wrapped at spaces to LIST_COLUMNS; the first line
 * is already at `indent`. */
static void print_wrapped(const char *text, int indent)
{
    int room = LIST_COLUMNS - indent;
    while (room > 20 && (int)strlen(text) > room) {
        int cut = room;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (cut == 0)
            cut = room;
        printf("%.*s\n%*s", cut, text, indent, "");
        text += cut + (text[cut] == ' ');
    }
    printf("%s\n", text);
}

/* One profile a block: its name, its description wrapped within 80
 * columns, (shadowed) and BROKEN with its error; its file with -v. */
static void print_list(const struct profile_info *list, size_t n, char **errors, bool verbose)
{
    int wname = 4;
    for (size_t i = 0; i < n; i++)
        wname = (int)strlen(list[i].name) > wname ? (int)strlen(list[i].name) : wname;
    wname = wname > 24 ? 24 : wname;
    for (size_t i = 0; i < n; i++) {
        const char *d = list[i].description && *list[i].description ? list[i].description
                        : "(no description)";
        char *text = xasprintf("%s%s", d, list[i].shadowed ? " (shadowed by the one above)" : "");
        if ((int)strlen(list[i].name) > wname)   /* its own line, the text below it */
            printf("%s\n%*s", list[i].name, wname + 2, "");
        else
            printf("%-*s  ", wname, list[i].name);
        print_wrapped(text, wname + 2);
        free(text);
        if (verbose)
            printf("%*s%s\n", wname + 2, "", list[i].path);
        if (errors[i]) {
            char *e = xasprintf("%s: %s", list[i].shadowed ? "broken too" : "BROKEN", errors[i]);
            printf("%*s", wname + 2, "");
            print_wrapped(e, wname + 2);
            free(e);
        }
    }
    if (!verbose)
        printf("(rdmarun profiles -v: each one's file; rdmarun profiles show NAME: its values)\n");
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
        print_list(list, n, errors, cl->verbose);
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
