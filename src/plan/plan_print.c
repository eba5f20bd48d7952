/* The plan as people and programs read it. */
#include "plan/plan.h"
#include "plan/launchers.h"
#include "plan/rules.h"
#include "util/msg.h"
#include "util/json.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/* The width to wrap to: the terminal's when `out` is one (TIOCGWINSZ),
 * else COLUMNS, else 80. */
static size_t output_width(FILE *out)
{
    struct winsize ws;
    int fd = fileno(out);
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(env, &end, 10);
        if (!*end && !errno && n > 0 && *env != '-')
            return n > 100000 ? 100000 : (size_t)n;
    }
    return 80;
}

/* `prefix`, then the words of `text` (split at spaces) on lines of at most
 * `width` characters, each line after the first indented by `indent`
 * spaces. A word longer than a line gets a line of its own; a prefix no
 * wider than the indent always keeps the first word. */
static void print_wrapped(FILE *out, size_t width, const char *prefix, size_t indent,
                          const char *text)
{
    size_t col = strlen(prefix);
    fputs(prefix, out);
    bool first = true;   /* nothing of text on this line yet */
    for (const char *w = text; *w;) {
        while (*w == ' ')
            w++;
        if (!*w)
            break;
        size_t n = strcspn(w, " ");
        bool fits = col + (first ? 0 : 1) + n <= width;
        /* The first word too, when the prefix is wider than the indent (a
         * table row whose origin does not fit goes below it). */
        if (!fits && (!first || col > indent)) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, n, out);
        col += n;
        first = false;
        w += n;
    }
    fputc('\n', out);
}

/* The command as a shell reads it, wrapped to `width` with " \" at each
 * line's end: lines break only before an option (an argument starting with
 * '-'), so that an option stays with its values ("-x NAME=VALUE", "--mca
 * pml ucx") and a copy of the lines still runs. */
static void print_command(FILE *out, size_t width, const struct strvec *argv)
{
    size_t col = 0;
    const size_t indent = 4;
    size_t i = 0;
    while (i < argv->n) {
        /* The group: this argument and the ones up to the next option. */
        struct strvec q = {0};
        size_t j = i;
        do {
            char *s = shell_quote(argv->v[j]);
            sv_push(&q, s);
            free(s);
            j++;
        } while (j < argv->n && argv->v[j][0] != '-');
        char *group = sv_join(&q, " ");
        sv_free(&q);
        size_t n = strlen(group);
        /* " \" after it when it is not the last: room for 2 more. */
        if (col > indent && col + 1 + n + (j < argv->n ? 2 : 0) > width) {
            fprintf(out, " \\\n%*s", (int)indent, "");
            col = indent;
        } else if (i > 0) {
            fputc(' ', out);
            col++;
        }
        fputs(group, out);
        col += n;
        free(group);
        i = j;
    }
    fputc('\n', out);
}

/* The wider of a and s, unless s is wider than cap. */
static size_t max_len(size_t a, const char *s, size_t cap)
{
    size_t n = s ? strlen(s) : 0;
    return n > a && n <= cap ? n : a;
}

/* An item's reason as the plan's text says it without detail: a rule's
 * own words, without its sources and the versions it applies to (*cut
 * set); the evidence folder as the one the verify line names. */
static char *brief_reason(const struct plan *p, const struct plan_item *it, bool *cut)
{
    if (it->source == SOURCE_RULE && strncmp(it->origin, "rule:", 5) == 0) {
        for (size_t r = 0; r < nrules; r++) {
            size_t n = strlen(rules[r].reason);
            if (strcmp(rules[r].id, it->origin + 5) == 0 &&
                strncmp(it->reason, rules[r].reason, n) == 0 && strncmp(it->reason + n, " (", 2) == 0) {
                *cut = true;
                return xstrdup(rules[r].reason);
            }
        }
    }
    if (it->source == SOURCE_EVIDENCE && p->evidence_dir) {
        size_t n = strlen(it->reason), d = strlen(p->evidence_dir);
        if (n > d + 4 && strcmp(it->reason + n - d, p->evidence_dir) == 0 &&
            strncmp(it->reason + n - d - 4, " in ", 4) == 0)
            return xasprintf("%.*s in the evidence folder above", (int)(n - d - 4), it->reason);
    }
    return xstrdup(it->reason);
}

/* The plan in lines of the output's width, each thing said once: a reason
 * shared by consecutive settings (the four evidence variables) follows the
 * last of them, and names the evidence folder as the verify line's; a
 * rule's sources and versions are detail, for `detail` (--report) and
 * --json. */
/* The plan's heading lines: profile, files, stack, verify, launcher and
 * bind policy, the path test. */
static void print_heading(const struct plan *p, FILE *out, size_t width)
{
    char *line;
    if (strcmp(p->profile, p->chosen) == 0)
        line = xasprintf("%s (fabric: %s)", p->chosen, p->fabric);
    else
        line = xasprintf("%s -> %s (fabric: %s)", p->profile, p->chosen, p->fabric);
    print_wrapped(out, width, "profile: ", 2, line);
    free(line);
    for (size_t i = 0; i < p->files.n; i++)
        print_wrapped(out, width, "  file: ", 4, p->files.v[i]);
    if (launcher_of(p->launcher.value)->command_is_launcher)
        line = xasprintf("UCX %s (COMMAND's MPI, if any, is its own)",
                         p->ucx_version ? p->ucx_version : "unknown");
    else
        line = xasprintf("%s (%s: %s), UCX %s", p->mpi_library ? p->mpi_library : "MPI unknown",
                         mpi_family_names[p->mpi.value], p->mpi.origin,
                         p->ucx_version ? p->ucx_version : "unknown");
    print_wrapped(out, width, "stack: ", 2, line);
    free(line);
    line = xasprintf("%s (%s), expect %s (%s)%s%s", verify_policy_names[p->verify.value],
                     p->verify.origin, expectation_names[p->expect.value], p->expect.origin,
                     p->evidence_dir ? ", evidence in " : "", p->evidence_dir ? p->evidence_dir : "");
    print_wrapped(out, width, "verify: ", 2, line);
    free(line);
    char *threads = p->threads ? xasprintf("; threads: %s%s (%s)", p->threads, p->smt ? " (smt)" : "",
                                           p->threads_origin)
                               : xstrdup("");
    line = xasprintf("%s (%s); bind policy: %s (%s)%s", launcher_of(p->launcher.value)->word,
                     p->launcher.origin, bind_policy_names[p->bind.value], p->bind.origin, threads);
    free(threads);
    print_wrapped(out, width, "launcher: ", 2, line);
    free(line);
    if (p->path_test) {
        char *path = command_line(&p->path.argv);
        line = xasprintf("%ld nodes, %s, within %g s: %s", p->path.nodes,
                         p->path.all_pairs ? "all pairs" : "ring", p->path.timeout_s, path);
        print_wrapped(out, width, "path test: ", 2, line);
        free(line);
        free(path);
    }
}

/* Item i's reason, under the last item of its group: "as for NAME" when an
 * earlier group said it already; *cut: said without its detail. */
static void print_reason(const struct plan *p, size_t i, FILE *out, size_t width, bool detail,
                         bool *cut)
{
    const struct plan_item *it = &p->items[i];
    const struct plan_item *next = i + 1 < p->n ? &p->items[i + 1] : NULL;
    if (!it->reason || (next && next->reason && strcmp(next->reason, it->reason) == 0))
        return;
    const struct plan_item *said = NULL;
    for (size_t k = 0; k < i && !said; k++) {
        const struct plan_item *e = &p->items[k];
        if (e->reason && strcmp(e->reason, it->reason) == 0 &&
            !(p->items[k + 1].reason && strcmp(p->items[k + 1].reason, e->reason) == 0))
            said = e;
    }
    char *why = said ? xasprintf("as for %s", said->name)
                : detail ? xstrdup(it->reason) : brief_reason(p, it, cut);
    print_wrapped(out, width, "       why: ", 12, why);
    free(why);
}

/* The items' table: KIND NAME VALUE ORIGIN, each group's reason under it. */
static void print_items(const struct plan *p, FILE *out, size_t width, bool detail)
{
    /* Columns as wide as their longest entry (a name wider than 40 or a
     * value wider than 24 pushes the rest of its row along rather than
     * widening every row). */
    size_t wname = 4, wvalue = 5;
    for (size_t i = 0; i < p->n; i++) {
        wname = max_len(wname, p->items[i].name, 40);
        wvalue = max_len(wvalue, p->items[i].value ? p->items[i].value : "(unset)", 24);
    }
    bool cut = false;   /* a rule's reason said without its detail */
    fprintf(out, "\n%-6s %-*s  %-*s  %s\n", "KIND", (int)wname, "NAME", (int)wvalue, "VALUE", "ORIGIN");
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        char *row = xasprintf("%-6s %-*s  %-*s  ", kind_names[it->kind], (int)wname, it->name,
                              (int)wvalue, it->value ? it->value : "(unset)");
        char *origin = xasprintf("%s%s", it->origin,
                                 it->overridden ? " (overridden by the command line)" : "");
        print_wrapped(out, width, row, 9, origin);
        free(origin);
        free(row);
        print_reason(p, i, out, width, detail, &cut);
    }
    if (cut)
        print_wrapped(out, width, "", 0,
                      "(--report or --json: each rule's sources and the versions it applies to)");
}

void plan_print_text(const struct plan *p, FILE *out, bool detail)
{
    size_t width = output_width(out);
    print_command(out, width, &p->argv);
    for (size_t i = 0; i < p->app_lines.n; i++)
        fprintf(out, "%s%s\n", i ? "  " : "with the appfile:\n  ", p->app_lines.v[i]);
    fputc('\n', out);
    print_heading(p, out, width);
    print_items(p, out, width, detail);
    for (size_t i = 0; i < p->notes.n + p->details.n; i++) {
        const char *n = i < p->notes.n ? p->notes.v[i] : p->details.v[i - p->notes.n];
        bool warning = strncmp(n, "warning: ", 9) == 0;
        char *prefix = xstrdup(warning ? msg_warning_word(out) : "note: ");   /* one label */
        print_wrapped(out, width, prefix, warning ? 9 : 6, n + (warning ? 9 : 0));
        free(prefix);
    }
    for (size_t i = 0; i < p->errors.n; i++)
        print_wrapped(out, width, msg_error_word(out), 7, p->errors.v[i]);
}

/* Where each of the plan's settings came from. */
static void origins_json(struct json *j, const struct plan *p)
{
    json_begin_object(j, "origins");
    json_string(j, "verify", p->verify.origin);
    json_string(j, "expect", p->expect.origin);
    json_string(j, "launcher", p->launcher.origin);
    json_string(j, "mpi_family", p->mpi.origin);
    json_string(j, "bind_policy", p->bind.origin);
    json_end_object(j);
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
    json_string(&j, "mpi_family", mpi_family_names[p->mpi.value]);
    json_string(&j, "ucx", p->ucx_version);
    json_end_object(&j);
    json_string(&j, "verify", verify_policy_names[p->verify.value]);
    json_string(&j, "expect", expectation_names[p->expect.value]);
    json_string(&j, "launcher", launcher_of(p->launcher.value)->word);
    origins_json(&j, p);
    json_string(&j, "evidence_dir", p->evidence_dir);
    json_strings(&j, "files", &p->files);
    json_strings(&j, "argv", &p->argv);
    char *cmd = command_line(&p->argv);
    json_string(&j, "command", cmd);
    free(cmd);
    if (p->path_test) {
        json_begin_object(&j, "path_test");
        json_int(&j, "nodes", p->path.nodes);
        json_string(&j, "pairs", p->path.all_pairs ? "all" : "ring");
        json_double(&j, "timeout_s", p->path.timeout_s);
        json_strings(&j, "argv", &p->path.argv);
        json_end_object(&j);
    }
    if (p->app_path)
        json_strings(&j, "appfile", &p->app_lines);
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
    json_strings(&j, "notes", &p->notes);
    json_strings(&j, "details", &p->details);
    json_strings(&j, "errors", &p->errors);
    json_int(&j, "status", p->status);
    json_string(&j, "bind_policy", bind_policy_names[p->bind.value]);
    if (p->placement)
        placement_json(p->placement, &j);
    json_end_object(&j);
    json_finish(&j);
}
