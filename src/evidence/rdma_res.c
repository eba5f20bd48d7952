/* The kernel's view of a running job: 'rdma -j res show qp' (iproute2), run
 * with an argv and a time limit: the ranks' RC QPs in RTS, and those in an
 * error state. */
#include "evidence/evidence.h"
#include "util/proc.h"
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#define RES_TIMEOUT_S 2.0
#define RES_MAX_BYTES (4 * 1024 * 1024)

/* stdout of `rdma -j res show qp`, or NULL when it cannot run. Its stderr
 * (a node without RDMA netlink says so there) is not the user's business. */
static char *rdma_res_json(void)
{
    char *const argv[] = {"rdma", "-j", "res", "show", "qp", NULL};
    return proc_stdout(argv, RES_TIMEOUT_S, RES_MAX_BYTES);
}

void rdma_res_parse(const char *text, const long *pids, size_t npids, struct qp_census *out)
{
    memset(out, 0, sizeof(*out));
    json_object *root = text ? json_tokener_parse(text) : NULL;
    size_t n = root && json_object_is_type(root, json_type_array) ?
               json_object_array_length(root) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *qp = json_object_array_get_idx(root, i), *v;
        if (!json_object_object_get_ex(qp, "pid", &v))
            continue;
        long pid = (long)json_object_get_int64(v);
        bool ours = false;
        for (size_t k = 0; k < npids && !ours; k++)
            ours = pids[k] == pid;
        if (!ours)
            continue;
#define FIELD(name) (json_object_object_get_ex(qp, name, &v) ? json_object_get_string(v) : "")
        const char *type = FIELD("type"), *state = FIELD("state");
        if (strcmp(type, "RC") == 0 && strcmp(state, "RTS") == 0)
            out->rts++;
        /* ERR: a completion failed (retries exhausted, a remote access
         * error); SQE: a send failed; SQD: draining. */
        if (strcmp(state, "ERR") == 0 || strcmp(state, "SQE") == 0 || strcmp(state, "SQD") == 0) {
            const char *dev = FIELD("ifname"), *comm = FIELD("comm");
            int port = json_object_object_get_ex(qp, "port", &v) ? json_object_get_int(v) : 0;
            int lqpn = json_object_object_get_ex(qp, "lqpn", &v) ? json_object_get_int(v) : -1;
            sv_pushf(&out->broken, "%s/%d %s QP %d (pid %ld%s%s) in %s", dev, port, type, lqpn,
                     pid, *comm ? ", " : "", comm, state);
        }
#undef FIELD
    }
    json_object_put(root);
}

void rdma_res_census(const long *pids, size_t npids, struct qp_census *out)
{
    char *text = rdma_res_json();
    rdma_res_parse(text, pids, npids, out);
    if (!text)
        out->rts = -1;
    free(text);
}
