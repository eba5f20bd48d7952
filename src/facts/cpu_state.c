/* The CPUs' power state from sysfs (devices/system/cpu): each CPU's cpufreq
 * governor, and the idle states deeper than C1 that are enabled, grouped
 * into CPU lists. A rank polling for completions on a core that drops into
 * a deep C-state or runs at a powersave clock answers late. */
#include "facts/internal.h"
#include "util/strvec.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

/* Grouping "KEY" -> the CPUs that have it. */
struct groups {
    struct strvec keys;
    hwloc_bitmap_t *cpus;
    size_t cap;
};

static void group_add(struct groups *g, const char *key, unsigned cpu)
{
    size_t i;
    for (i = 0; i < g->keys.n; i++)
        if (strcmp(g->keys.v[i], key) == 0)
            break;
    if (i == g->keys.n) {
        GROW(g->cpus, g->cap, g->keys.n + 1);
        g->cpus[i] = hwloc_bitmap_alloc();
        sv_push(&g->keys, key);
    }
    hwloc_bitmap_set(g->cpus[i], cpu);
}

/* "KEY:CPULIST" each, into *list; the groups are freed. */
static void groups_out(struct groups *g, char ***list)
{
    for (size_t i = 0; i < g->keys.n; i++) {
        char *cpus;
        hwloc_bitmap_list_asprintf(&cpus, g->cpus[i]);
        char *e = xasprintf("%s:%s", g->keys.v[i], cpus);
        list_add(list, e);
        free(e);
        free(cpus);
        hwloc_bitmap_free(g->cpus[i]);
    }
    free(g->cpus);
    sv_free(&g->keys);
}

static int is_cpu(const struct dirent *d)
{
    return starts_with(d->d_name, "cpu") && d->d_name[3] >= '0' && d->d_name[3] <= '9';
}

static void read_idle_states(struct groups *idle, const char *cpudir, unsigned cpu)
{
    for (int s = 0; s < 16; s++) {
        char *name = read_first_line("%s/cpuidle/state%d/name", cpudir, s);
        if (!name)
            break;
        char *lat = read_first_line("%s/cpuidle/state%d/latency", cpudir, s);
        char *off = read_first_line("%s/cpuidle/state%d/disable", cpudir, s);
        long us = -1;
        /* POLL and C1 (latency of a few us) are harmless; deeper ones are not */
        if (lat && parse_long(lat, 0, 1000000000L, &us) && us > 2 &&
            !(off && strcmp(off, "1") == 0)) {
            char *key = xasprintf("%s:%ld", name, us);
            group_add(idle, key, cpu);
            free(key);
        }
        free(name);
        free(lat);
        free(off);
    }
}

void facts_read_cpu_state(struct facts *f, const char *sysfs)
{
    char *dir = xasprintf("%s/devices/system/cpu", sysfs);
    struct dirent **names;
    int n = scandir(dir, &names, is_cpu, alphasort);
    struct groups gov = {0}, idle = {0};
    bool any_idle = false;
    for (int i = 0; i < n; i++) {
        unsigned cpu = (unsigned)atoi(names[i]->d_name + 3);
        char *cpudir = xasprintf("%s/%s", dir, names[i]->d_name);
        char *g = read_first_line("%s/cpufreq/scaling_governor", cpudir);
        if (g)
            group_add(&gov, g, cpu);
        free(g);
        char *state0 = read_first_line("%s/cpuidle/state0/name", cpudir);
        any_idle |= state0 != NULL;
        free(state0);
        read_idle_states(&idle, cpudir, cpu);
        free(cpudir);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    free(dir);
    groups_out(&gov, &f->cpu.governors);
    groups_out(&idle, &f->cpu.idle_states);
    if (any_idle && !f->cpu.idle_states)
        f->cpu.idle_states = xcalloc(1, sizeof(char *));   /* read: none deeper than C1 */
}
