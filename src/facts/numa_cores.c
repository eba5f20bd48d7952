/* Which NUMA node's ranks run on which cores: hwloc gives a memory-only
 * NUMA node (HBM or MCDRAM in flat mode, a CXL memory expander) the cpuset
 * of the cores near it, which are also the cores of the node Linux puts
 * them on. Placement deals cores to ranks, so a core counted under both
 * would take two ranks. */
#include "facts/findings.h"
#include "facts/internal.h"
#include "util/xalloc.h"
#include <hwloc.h>
#include <stdbool.h>
#include <stdlib.h>

/* Whether every PU of `core` is in the one earlier core `owner` names, and
 * that core has no other: the same core listed again. */
static bool same_core(hwloc_const_bitmap_t core, const unsigned *owner, const int *weight)
{
    unsigned first = (unsigned)hwloc_bitmap_first(core), pu;
    hwloc_bitmap_foreach_begin(pu, core) {
        if (owner[pu] != owner[first])
            return false;
    }
    hwloc_bitmap_foreach_end();
    return owner[first] && weight[owner[first]] == hwloc_bitmap_weight(core);
}

char *numa_cores_claim(struct numa_node *nodes, size_t n)
{
    hwloc_bitmap_t core = hwloc_bitmap_alloc(), numbers = hwloc_bitmap_alloc();
    /* owner[PU]: the core that holds it, numbered from 1; weight[c]: its PUs */
    unsigned *owner = xcalloc(MAX_PUS, sizeof(*owner)), ncores = 0;
    int *weight = xcalloc(MAX_PUS + 1, sizeof(*weight));
    char *why = NULL;
    for (size_t i = 0; i < n && !why; i++) {
        if (hwloc_bitmap_isset(numbers, (unsigned)nodes[i].os_index)) {
            why = xasprintf("numa_nodes[%zu] is NUMA node %d again: a node has one number",
                            i, nodes[i].os_index);
            break;
        }
        hwloc_bitmap_set(numbers, (unsigned)nodes[i].os_index);
        char **cores = nodes[i].core_pus;
        size_t kept = 0;
        for (size_t k = 0; cores && cores[k]; k++) {
            /* CPU lists from files are checked where they are read; hwloc's
             * PUs are its own, below MAX_PUS on any machine it describes */
            if (!why && (hwloc_bitmap_list_sscanf(core, cores[k]) != 0 ||
                         hwloc_bitmap_iszero(core) || hwloc_bitmap_last(core) >= MAX_PUS))
                why = xasprintf("numa_nodes[%zu].core_pus[%zu] \"%s\" is not a list of PUs "
                                "below %d", i, k, cores[k], MAX_PUS);
            if (why) {
                free(cores[k]);
                continue;
            }
            unsigned pu;
            bool free_pus = true;
            hwloc_bitmap_foreach_begin(pu, core) {
                free_pus &= !owner[pu];
            }
            hwloc_bitmap_foreach_end();
            if (free_pus) {
                ncores++;
                hwloc_bitmap_foreach_begin(pu, core) {
                    owner[pu] = ncores;
                }
                hwloc_bitmap_foreach_end();
                weight[ncores] = hwloc_bitmap_weight(core);
                cores[kept++] = cores[k];
                continue;
            }
            if (!same_core(core, owner, weight))
                why = xasprintf("numa_nodes[%zu].core_pus[%zu] \"%s\" is not a core of its own "
                                "nor one an earlier node lists: a PU is in one core", i, k, cores[k]);
            free(cores[k]);   /* listed again: this node only has memory near it */
        }
        if (cores)
            cores[kept] = NULL;
    }
    free(weight);
    free(owner);
    hwloc_bitmap_free(numbers);
    hwloc_bitmap_free(core);
    return why;
}
