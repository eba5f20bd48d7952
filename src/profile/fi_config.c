/* libfabric's own answers: its version (fi_version) and the variables the
 * providers loaded here define (fi_getparams, which fi_info -e prints),
 * asked once; libfabric loads its providers in fi_getinfo (src/fabric.c,
 * fi_ini), so that is called first with no hints. */
#include "profile/known_vars.h"
#include "util/strvec.h"
#include "util/xalloc.h"
#include <rdma/fabric.h>
#include <stdio.h>
#include <string.h>

static struct strvec params;
static bool asked;

const struct strvec *fi_config_params(void)
{
    if (asked)
        return params.n ? &params : NULL;
    asked = true;
    struct fi_info *info = NULL;
    if (fi_getinfo(fi_version(), NULL, NULL, 0, NULL, &info) == 0)
        fi_freeinfo(info);
    struct fi_param *list = NULL;
    int n = 0;
    if (fi_getparams(&list, &n) != 0)
        return NULL;
    for (int i = 0; i < n; i++)
        if (list[i].name && strncmp(list[i].name, "FI_", 3) == 0 && list[i].name[3] &&
            sv_find(&params, list[i].name + 3) < 0)
            sv_push(&params, list[i].name + 3);
    fi_freeparams(list);
    return params.n ? &params : NULL;
}

const char *fi_config_version(void)
{
    static char text[32];
    uint32_t v = fi_version();
    snprintf(text, sizeof(text), "%u.%u", FI_MAJOR(v), FI_MINOR(v));
    return text;
}
