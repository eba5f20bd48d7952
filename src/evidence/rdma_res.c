/* The kernel's view of a running job: 'rdma -j res show qp' (iproute2), run
 * with an argv and a time limit, counting the ranks' RC QPs in RTS. */
#include "evidence/evidence.h"
#include "util/proc.h"
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define RES_TIMEOUT_S 2.0
#define RES_MAX_BYTES (4 * 1024 * 1024)

/* stdout of `rdma -j res show qp`, or NULL when it cannot run. Its stderr
 * (a node without RDMA netlink says so there) is not the user's business. */
static char *rdma_res_json(void)
{
    char *const argv[] = {"rdma", "-j", "res", "show", "qp", NULL};
    struct proc_spec spec = {.argv = argv, .err = PROC_NULL};
    char *out;
    bool timed_out;
    int status = proc_capture(&spec, RES_TIMEOUT_S, RES_MAX_BYTES, &out, &timed_out);
    if (status < 0 || timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

int rdma_res_count_rts(const long *pids, size_t npids)
{
    char *text = rdma_res_json();
    if (!text)
        return -1;
    json_object *root = json_tokener_parse(text);
    free(text);
    int count = 0;
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
        const char *type = json_object_object_get_ex(qp, "type", &v) ?
                           json_object_get_string(v) : "";
        const char *state = json_object_object_get_ex(qp, "state", &v) ?
                            json_object_get_string(v) : "";
        if (ours && strcmp(type, "RC") == 0 && strcmp(state, "RTS") == 0)
            count++;
    }
    json_object_put(root);
    return count;
}
