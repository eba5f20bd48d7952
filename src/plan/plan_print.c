/* The plan as people and programs read it. */
#include "plan/plan.h"
#include "util/msg.h"
#include "util/json.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"env", "mca", "option"};

static char *command_line(const struct strvec *argv)
{
    struct strvec q = {0};
    for (size_t i = 0; i < argv->n; i++) {
        char *s = shell_quote(argv->v[i]);
        sv_push(&q, s);
        free(s);
    }
    char *line = sv_join(&q, " ");
    sv_free(&q);
    return line;
}

void plan_print_text(const struct plan *p, FILE *out)
{
    char *cmd = command_line(&p->argv);
    fprintf(out, "%s\n", cmd);
    free(cmd);
    for (size_t i = 0; i < p->app_lines.n; i++)
        fprintf(out, "%s%s\n", i ? "  " : "with the appfile:\n  ", p->app_lines.v[i]);
    fputc('\n', out);
    if (strcmp(p->profile, p->chosen) == 0)
        fprintf(out, "profile: %s (fabric: %s)\n", p->chosen, p->fabric);
    else
        fprintf(out, "profile: %s -> %s (fabric: %s)\n", p->profile, p->chosen, p->fabric);
    for (size_t i = 0; i < p->files.n; i++)
        fprintf(out, "  file: %s\n", p->files.v[i]);
    if (p->launcher.value == LAUNCHER_EXEC)
        fprintf(out, "stack: UCX %s (COMMAND's MPI, if any, is its own)\n",
                p->ucx_version ? p->ucx_version : "unknown");
    else
        fprintf(out, "stack: %s, UCX %s\n", p->mpi_library ? p->mpi_library : "MPI unknown",
                p->ucx_version ? p->ucx_version : "unknown");
    fprintf(out, "verify: %s (%s), expect %s (%s)%s%s\n", verify_policy_names[p->verify.value],
            p->verify.origin, expectation_names[p->expect.value], p->expect.origin,
            p->evidence_dir ? ", evidence in " : "", p->evidence_dir ? p->evidence_dir : "");
    fprintf(out, "launcher: %s (%s); bind policy: %s (%s)", launcher_names[p->launcher.value],
            p->launcher.origin, bind_policy_names[p->bind.value], p->bind.origin);
    if (p->threads)
        fprintf(out, "; threads: %s%s (%s)", p->threads, p->smt ? " (smt)" : "", p->threads_origin);
    fputc('\n', out);
    if (p->path_test) {
        char *path = command_line(&p->path.argv);
        fprintf(out, "path test: %ld nodes, %s, within %g s: %s\n", p->path.nodes,
                p->path.all_pairs ? "all pairs" : "ring", p->path.timeout_s, path);
        free(path);
    }
    fprintf(out, "\n%-6s %-28s %-24s %s\n", "KIND", "NAME", "VALUE", "ORIGIN");
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        fprintf(out, "%-6s %-28s %-24s %s%s\n", kind_names[it->kind], it->name,
                it->value ? it->value : "(unset)", it->origin,
                it->overridden ? " (overridden by the command line)" : "");
        if (it->reason)
            fprintf(out, "%-6s   why: %s\n", "", it->reason);
    }
    for (size_t i = 0; i < p->notes.n; i++) {
        const char *n = p->notes.v[i];
        bool warning = strncmp(n, "warning: ", 9) == 0;
        fprintf(out, "note: %s%s\n", warning ? msg_warning_word(out) : "", n + (warning ? 9 : 0));
    }
    for (size_t i = 0; i < p->errors.n; i++)
        fprintf(out, "%s%s\n", msg_error_word(out), p->errors.v[i]);
}

void plan_print_json(const struct plan *p, FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_begin_object(&j, NULL);
    json_string(&j, "profile", p->profile);
    json_string(&j, "chosen", p->chosen);
    json_string(&j, "fabric", p->fabric);
    json_begin_object(&j, "stack");
    json_string(&j, "mpi", p->mpi_library);
    json_string(&j, "ucx", p->ucx_version);
    json_end_object(&j);
    json_string(&j, "verify", verify_policy_names[p->verify.value]);
    json_string(&j, "expect", expectation_names[p->expect.value]);
    json_string(&j, "launcher", launcher_names[p->launcher.value]);
    json_begin_object(&j, "origins");
    json_string(&j, "verify", p->verify.origin);
    json_string(&j, "expect", p->expect.origin);
    json_string(&j, "launcher", p->launcher.origin);
    json_string(&j, "bind_policy", p->bind.origin);
    json_end_object(&j);
    json_string(&j, "evidence_dir", p->evidence_dir);
    json_begin_array(&j, "files");
    for (size_t i = 0; i < p->files.n; i++)
        json_string(&j, NULL, p->files.v[i]);
    json_end_array(&j);
    json_begin_array(&j, "argv");
    for (size_t i = 0; i < p->argv.n; i++)
        json_string(&j, NULL, p->argv.v[i]);
    json_end_array(&j);
    char *cmd = command_line(&p->argv);
    json_string(&j, "command", cmd);
    free(cmd);
    if (p->path_test) {
        json_begin_object(&j, "path_test");
        json_int(&j, "nodes", p->path.nodes);
        json_string(&j, "pairs", p->path.all_pairs ? "all" : "ring");
        json_double(&j, "timeout_s", p->path.timeout_s);
        json_begin_array(&j, "argv");
        for (size_t i = 0; i < p->path.argv.n; i++)
            json_string(&j, NULL, p->path.argv.v[i]);
        json_end_array(&j);
        json_end_object(&j);
    }
    if (p->app_path) {
        json_begin_array(&j, "appfile");
        for (size_t i = 0; i < p->app_lines.n; i++)
            json_string(&j, NULL, p->app_lines.v[i]);
        json_end_array(&j);
    }
    json_begin_array(&j, "items");
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        json_begin_object(&j, NULL);
        json_string(&j, "kind", kind_names[it->kind]);
        json_string(&j, "name", it->name);
        json_string(&j, "value", it->value);
        json_string(&j, "origin", it->origin);
        json_string(&j, "reason", it->reason);
        json_bool(&j, "overridden", it->overridden);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_begin_array(&j, "notes");
    for (size_t i = 0; i < p->notes.n; i++)
        json_string(&j, NULL, p->notes.v[i]);
    json_end_array(&j);
    json_begin_array(&j, "errors");
    for (size_t i = 0; i < p->errors.n; i++)
        json_string(&j, NULL, p->errors.v[i]);
    json_end_array(&j);
    json_int(&j, "status", p->status);
    json_string(&j, "bind_policy", bind_policy_names[p->bind.value]);
    if (p->placement)
        placement_json(p->placement, &j);
    json_end_object(&j);
    json_finish(&j);
}
