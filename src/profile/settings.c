#include "profile/settings.h"
#include "profile/schema.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

const char *const verify_policy_names[] = {"off", "warn", "strict", NULL};
const char *const expectation_names[] = {"rdma", "tcp", "local", "any", "efa", "cxi", "opx",
                                         "gpudirect-tcp", NULL};
const char *const mpi_family_names[] = {"openmpi", "mpich", "impi", NULL};
const char *const mpi_family_titles[] = {"Open MPI", "MPICH", "Intel MPI", NULL};
const char *const bind_policy_names[] = {"none", "numa", "nic-local", "gpu-local", NULL};
const char *const memory_policy_names[] = {"prefer", "bind", "none", NULL};
const char *const nic_choice_names[] = {"one", "nearest", NULL};

int name_index(const char *const *names, const char *word)
{
    for (int i = 0; word && names[i]; i++)
        if (strcmp(names[i], word) == 0)
            return i;
    return -1;
}

void setting_resolve(struct setting *out, const char *const *names, const char *given,
                     const char *option, const struct profile *p, const char *section,
                     const char *key, int dflt)
{
    const struct entry *e = p ? profile_get(p, section, key) : NULL;
    int v = given ? name_index(names, given) : e ? name_index(names, e->value) : -1;
    out->value = v >= 0 ? v : dflt;
    out->origin = v < 0 ? xstrdup("default") : given ? xstrdup(option) : entry_origin(e);
}

void setting_free(struct setting *s)
{
    free(s->origin);
    s->origin = NULL;
}

const char *schema_value(const struct profile *p, const char *section, const char *key)
{
    const char *v = p ? profile_value(p, section, key) : NULL;
    const struct sectiondef *sec = v ? NULL : schema_section(section);
    const struct keydef *kd = sec ? schema_key(sec, key) : NULL;
    return v ? v : kd ? kd->dflt : NULL;
}

bool expects_fabric(int expectation)
{
    return expectation == EXPECT_RDMA || expectation == EXPECT_EFA ||
           expectation == EXPECT_CXI || expectation == EXPECT_OPX ||
           expectation == EXPECT_GPUDIRECT_TCP;
}
