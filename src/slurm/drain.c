/* Draining and resuming a Slurm node through scontrol, as LBNL's NHC does:
 * rdmarun's drains carry the reason prefix "rdmarun:", and rdmarun resumes
 * only nodes whose reason carries it, never a node an admin drained.
 * scontrol runs with an argv array and a time limit (slurmctld may be down);
 * prologs and HealthCheckProgram have no PATH, so its usual places are tried. */
#include "slurm/drain.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/proc.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCONTROL_TIMEOUT_S 15.0
#define SCONTROL_MAX_BYTES (1024 * 1024)
#define PREFIX "rdmarun:"

static char *find_scontrol(const char *given)
{
    if (given)
        return xstrdup(given);
    const char *path = getenv("PATH");
    char *dirs = xasprintf("%s:/usr/bin:/usr/local/bin:/opt/slurm/bin", path ? path : "");
    char *found = NULL;
    for (char *s = dirs, *d; !found && (d = strsep(&s, ":"));) {
        char *cand = xasprintf("%s/scontrol", *d ? d : ".");
        if (*d && access(cand, X_OK) == 0)
            found = cand;
        else
            free(cand);
    }
    free(dirs);
    return found;
}

/* Run scontrol ARGS; its output (stdout and stderr) in *out. Returns its
 * exit status, or -1. */
static int scontrol(const char *given, const char *const *args, char **out)
{
    *out = NULL;
    char *bin = find_scontrol(given);
    if (!bin || access(bin, X_OK) != 0) {
        rr_error("cannot run %s: %s (hint: give scontrol's path with --scontrol)",
                 bin ? bin : "scontrol", bin ? strerror(errno) : "not found");
        free(bin);
        return -1;
    }
    const char *argv[8] = {bin};
    size_t n = 1;
    for (; args[n - 1] && n < 7; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    struct proc_spec spec = {.argv = (char *const *)argv, .err_to_out = true};
    bool timed_out;
    int status = proc_capture(&spec, SCONTROL_TIMEOUT_S, SCONTROL_MAX_BYTES, out, &timed_out);
    if (status < 0)
        rr_error("cannot run %s: %s (hint: give scontrol's path with --scontrol)", bin,
                 strerror(errno));
    else if (timed_out)
        rr_error("%s %s did not answer within %g s (hint: is slurmctld running?)", bin, args[0],
                 SCONTROL_TIMEOUT_S);
    free(bin);
    return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool slurm_node_name_ok(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n <= 64 && name[0] != '-' && strcasecmp(name, "ALL") != 0 &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n;
}

/* The node's state and drain reason from 'scontrol show node'. */
static int node_state(const char *bin, const char *node, char **state, char **reason)
{
    const char *args[] = {"show", "node", node, NULL};
    char *out;
    *state = *reason = NULL;
    int st = scontrol(bin, args, &out);
    if (st != 0) {
        char *said = out ? lines_as_one(out) : NULL;
        if (said)
            rr_error("scontrol show node %s failed: %s", node, said);
        free(said);
        free(out);
        return RR_EX_UNAVAILABLE;
    }
    const char *s = strstr(out, "State=");
    if (s)
        *state = xstrndup(s + 6, strcspn(s + 6, " \n"));
    const char *r = strstr(out, "Reason=");
    if (r)
        *reason = xstrndup(r + 7, strcspn(r + 7, "\n"));
    free(out);
    return 0;
}

int slurm_drain(const char *bin, const char *node, const char *why)
{
    if (!slurm_node_name_ok(node)) {
        rr_error("'%s' is not one node's name: no node is drained (hint: --node NAME)", node);
        return RR_EX_USAGE;
    }
    char *state, *reason;
    int rc = node_state(bin, node, &state, &reason);
    if (rc)
        return rc;
    bool drained = state && strstr(state, "DRAIN");
    if (drained && (!reason || strncmp(reason, PREFIX, strlen(PREFIX)) != 0)) {
        printf("rdmarun: node %s is already drained (Reason=%s): left as it is\n", node,
               reason ? reason : "");
    } else {
        char *text = xasprintf("Reason=" PREFIX " %.200s", why);
        char *nodearg = xasprintf("NodeName=%s", node);
        const char *args[] = {"update", nodearg, "State=DRAIN", text, NULL};
        char *out;
        if (scontrol(bin, args, &out) != 0) {
            char *said = lines_as_one(out ? out : "");
            rr_error("cannot drain node %s: %s", node, said);
            free(said);
            rc = RR_EX_UNAVAILABLE;
        } else {
            printf("rdmarun: drained node %s: %s\n", node, text + 7);
        }
        free(out);
        free(text);
        free(nodearg);
    }
    free(state);
    free(reason);
    return rc;
}

int slurm_resume_ours(const char *bin, const char *node)
{
    if (!slurm_node_name_ok(node)) {
        rr_error("'%s' is not one node's name: no node is resumed (hint: --node NAME)", node);
        return RR_EX_USAGE;
    }
    char *state, *reason;
    int rc = node_state(bin, node, &state, &reason);
    if (rc)
        return rc;
    if (state && strstr(state, "DRAIN") && reason &&
        strncmp(reason, PREFIX, strlen(PREFIX)) == 0) {
        char *nodearg = xasprintf("NodeName=%s", node);
        const char *args[] = {"update", nodearg, "State=RESUME", NULL};
        char *out;
        if (scontrol(bin, args, &out) != 0) {
            char *said = lines_as_one(out ? out : "");
            rr_error("cannot resume node %s: %s", node, said);
            free(said);
            rc = RR_EX_UNAVAILABLE;
        } else {
            printf("rdmarun: resumed node %s (it was drained by %s)\n", node, reason);
        }
        free(out);
        free(nodearg);
    }
    free(state);
    free(reason);
    return rc;
}
