/* The kernel's view of a running job: 'rdma -j res show qp' (iproute2), run
 * with an argv and a time limit, counting the ranks' RC QPs in RTS. */
#include "evidence/evidence.h"
#include "util/xalloc.h"
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RES_TIMEOUT_MS 2000
#define RES_MAX_BYTES (4 * 1024 * 1024)

/* stdout of `rdma -j res show qp`, or NULL when it cannot run. */
static char *rdma_res_json(void)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        char *const argv[] = {"rdma", "-j", "res", "show", "qp", NULL};
        execvp("rdma", argv);
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 65536, len = 0;
    char *buf = xmalloc(cap);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (len + 1 >= cap && cap < RES_MAX_BYTES) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        if (len + 1 >= cap)
            break;
        ssize_t n = read(fd[0], buf + len, cap - len - 1);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd[0]);
    buf[len] = '\0';
    int status;
    for (int waited = 0; waitpid(pid, &status, WNOHANG) == 0; waited += 10) {
        if (waited > RES_TIMEOUT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
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
