/* libfabric's own answers: the variables the providers here define
 * (fi_getparams, which 'fi_info -e' prints), asked once per process in a
 * child (util/fi_dl.h: libfabric is never loaded in rdmarun itself, and a
 * provider may wait on a wedged device: the child is killed after
 * FI_CONFIG_TIMEOUT_S). libfabric loads its providers in fi_getinfo
 * (src/fabric.c, fi_ini), called first with no hints. */
#include "profile/known_vars.h"
#include "util/fi_dl.h"
#include "util/proc.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FI_CONFIG_TIMEOUT_S 10.0

static struct strvec params;
static char version[32];
static bool asked;

/* In the child: "version MAJOR.MINOR", then a variable (without FI_) a line. */
static void ask(void *arg)
{
    (void)arg;
    const struct fi_api *fi = fi_api();
    if (!fi)
        return;
    struct fi_info *info = NULL;
    if (fi->getinfo(fi->version(), NULL, NULL, 0, NULL, &info) == 0)
        fi->freeinfo(info);
    uint32_t v = fi->version();
    printf("version %u.%u\n", FI_MAJOR(v), FI_MINOR(v));
    struct fi_param *list = NULL;
    int n = 0;
    if (fi->getparams(&list, &n) != 0)
        return;
    for (int i = 0; i < n; i++)
        if (list[i].name && strncmp(list[i].name, "FI_", 3) == 0 && list[i].name[3] &&
            !strpbrk(list[i].name, " \t\n"))
            printf("%s\n", list[i].name + 3);
    fi->freeparams(list);
}

static void ask_once(void)
{
    if (asked)
        return;
    asked = true;
    struct proc_spec s = {.fn = ask, .out = PROC_PIPE, .err = PROC_NULL, .die_with_parent = true};
    char *out = NULL;
    bool timed_out = false;
    proc_capture(&s, FI_CONFIG_TIMEOUT_S, 1 << 20, &out, &timed_out);
    struct strvec lines = {0};
    sv_split(&lines, out ? out : "", "\n");
    for (size_t i = 0; i < lines.n; i++) {
        if (strncmp(lines.v[i], "version ", 8) == 0)
            snprintf(version, sizeof(version), "%s", lines.v[i] + 8);
        else if (sv_find(&params, lines.v[i]) < 0)
            sv_push(&params, lines.v[i]);
    }
    sv_free(&lines);
    free(out);
}

const struct strvec *fi_config_params(void)
{
    ask_once();
    return params.n ? &params : NULL;
}

const char *fi_config_version(void)
{
    ask_once();
    return version[0] ? version : "?";
}
