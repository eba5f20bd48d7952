/* The path test's PMIx side, shared by its verbs (path_peer.c) and
 * libfabric (path_peer_fi.c) tests: the job's size, what a node publishes,
 * another node's blob, the fences. */
#include "preflight/path_peer_parts.h"
#include "util/xalloc.h"
#include <stdlib.h>

int peer_job_size(const pmix_proc_t *me)
{
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me->nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *v = NULL;
    int n = -1;
    if (PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v) == PMIX_SUCCESS && v &&
        v->type == PMIX_UINT32)
        n = (int)v->data.uint32;
    if (v)
        PMIX_VALUE_RELEASE(v);
    return n;
}

bool peer_fence(const struct peer *p)
{
    pmix_info_t info[2];
    bool collect = true;
    int timeout = (int)(p->o->step_s * 2 + 1);
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(NULL, 0, info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc != PMIX_SUCCESS)
        peer_record(p, "fail", "step=exchange err=PMIx_Fence: %s (a node did not join within %d s)",
               PMIx_Error_string(rc), timeout);
    return rc == PMIX_SUCCESS;
}

pmix_value_t *peer_blob(const struct peer *p, int rank, size_t min_len, char **err)
{
    pmix_proc_t other;
    PMIX_LOAD_PROCID(&other, p->me.nspace, (pmix_rank_t)rank);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&other, PMIX_KEY, NULL, 0, &v);
    if (rc == PMIX_SUCCESS && v && v->type == PMIX_BYTE_OBJECT && v->data.bo.size >= min_len)
        return v;
    *err = xasprintf("no address from node %d: %s", rank, PMIx_Error_string(rc));
    if (v)
        PMIX_VALUE_RELEASE(v);
    return NULL;
}

bool peer_publish(const struct peer *p, void *blob, size_t len)
{
    pmix_value_t v = {.type = PMIX_BYTE_OBJECT};
    v.data.bo.bytes = blob;
    v.data.bo.size = len;
    bool joined = PMIx_Put(PMIX_GLOBAL, PMIX_KEY, &v) == PMIX_SUCCESS &&
                  PMIx_Commit() == PMIX_SUCCESS && peer_fence(p);
    free(blob);
    return joined;
}

