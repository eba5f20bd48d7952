/* The words of a command line that look like one thing and are another
 * (issue 51): rdmarun's own options written after the program, which
 * mpirun's rule gives to the program, and recorded facts on a real run. */
#include "cmd/options.h"
#include "cmd/commands.h"
#include "launch/launch.h"
#include "util/msg.h"
#include "util/text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* rdmarun's options that change what it does with a job, by names few
 * programs take (not --profile or --launcher, which many do): after the
 * program they are the program's, which is rarely what was meant. The last
 * two are compare's and tune's: after their program, refused. */
static const char *const own_after[] = {
    "dry-run", "verify", "bind-policy", "evidence-dir", "sysfs", "topology", "facts",
    "mpirun", "metric", "higher-is-better", NULL,
};

/* The first of the program's arguments that is one of own_after (--NAME or
 * --NAME=VALUE), or NULL. */
static const char *own_option_after(const struct strvec *program)
{
    for (size_t i = 1; i < program->n; i++) {
        const char *w = program->v[i];
        for (int k = 0; w[0] == '-' && w[1] == '-' && own_after[k]; k++) {
            size_t len = strlen(own_after[k]);
            if (strncmp(w + 2, own_after[k], len) == 0 && (!w[2 + len] || w[2 + len] == '='))
                return w;
        }
    }
    return NULL;
}

/* Asked on the terminal: whether to start the job anyway (y or yes). */
static bool asked_yes(const char *program)
{
    char *p = term_safe(program, strlen(program), 80);
    fprintf(stderr, "rdmarun: start %s with that option as its own? [y/N] ", p);
    free(p);
    fflush(stderr);
    char line[16] = "";
    if (!fgets(line, sizeof(line), stdin))
        return false;
    line[strcspn(line, "\r\n")] = '\0';
    return strcmp(line, "y") == 0 || strcmp(line, "Y") == 0 || strcmp(line, "yes") == 0;
}

int cli_program_words(const struct cmdline *cl)
{
    const struct strvec *program = &cl->job.program;
    /* (--json: the plan compare and tune ask for, whose caller said it) */
    if (!(cl->command & (CMD_RUN | CMD_COMPARE | CMD_TUNE)) || program->n < 2 || cl->json)
        return 0;
    const char *w = own_option_after(program);
    if (!w)
        return 0;
    char *word = term_safe(w, strcspn(w, "="), 64), *prog = term_safe(program->v[0],
                                                                        strlen(program->v[0]), 80);
    int rc = 0;
    const char *who = cl->command == CMD_RUN ? "rdmarun" : command_of(cl->command)->name;
    bool figure = starts_with(w, "--metric") || starts_with(w, "--higher-is-better");
    if (cl->command != CMD_RUN && !figure) {
        rr_warn("%s comes after the program, so it goes to %s, not to %s", word, prog, who);
    } else if (cl->command != CMD_RUN) {
        rr_error("%s comes after the program, so it goes to %s, not to %s (hint: put %s's "
                 "options before '--': rdmarun %s ... %s ... -- %s ...)", word, prog, who, who,
                 who, word, prog);
        rc = RR_EX_USAGE;
    } else {
        rr_warn("%s comes after the program, so it goes to %s, not to rdmarun (hint: put "
                "rdmarun's options before the program: rdmarun %s ... %s ...)", word, prog, word,
                prog);
        bool asking = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
        bool strict = cl->verify && strcmp(cl->verify, "strict") == 0;
        if ((asking || strict) && !cl->dry_run && !(asking && asked_yes(prog))) {
            rr_error("not started: %s", asking ? "not confirmed"
                     : "--verify strict starts no job whose options may be misplaced");
            rc = RR_EX_USAGE;
        }
    }
    free(word);
    free(prog);
    return rc;
}

/* "-np2", "-n2", "--np=2"-less "--np2": a count option of mpirun's with its
 * number glued on, as "-np 2"; false for any other word. */
bool cli_glued_count(const char *word, char *out, size_t n)
{
    static const char *const counts[] = {"np", "n", "c", "N", "npernode", NULL};
    size_t len = strcspn(word, "0123456789");
    const char *digits = word + len;
    if (len < 2 || !*digits || digits[strspn(digits, "0123456789")])
        return false;
    size_t dashes = strspn(word, "-");
    for (int k = 0; counts[k]; k++)
        if (dashes >= 1 && dashes <= 2 && len - dashes == strlen(counts[k]) &&
            strncmp(word + dashes, counts[k], len - dashes) == 0) {
            snprintf(out, n, "%.*s %s", (int)len, word, digits);
            return true;
        }
    return false;
}

/* Whether a program of that name is on PATH (as execvp would find it). */
static bool on_path(const char *word)
{
    char *found = launch_on_path(word);
    free(found);
    return found != NULL;
}

/* The command a first word nearly spells ('prob', 'verison'), when it is
 * no program to run: a usage error (true, said). */
bool cli_near_command(const char *word)
{
    if (word[0] == '-' || strchr(word, '/') || on_path(word))
        return false;
    const char *names[16];
    size_t n = 0;
    for (size_t c = 0; c < ncommands && n < 16; c++)
        if (commands[c].name)
            names[n++] = commands[c].name;
    const char *s = suggest(word, names, n);
    if (s)
        rr_error("'%s' is not an rdmarun command, nor a program on PATH (did you mean '%s'? "
                 "hint: rdmarun --help; a program here: ./%s)", word, s, word);
    return s != NULL;
}

int cli_recorded_node(const struct cmdline *cl)
{
    const char *opt = cl->facts ? "--facts" : cl->sysfs ? "--sysfs" : cl->topology ? "--topology"
                                                                            : NULL;
    const char *tests = getenv("RDMARUN_RECORDED_RUN");   /* rdmarun's own tests */
    if (cl->command != CMD_RUN || cl->dry_run || !opt || (tests && strcmp(tests, "1") == 0))
        return 0;
    rr_error("%s describes a recorded node: a real run here would plan with that node's "
             "devices and CPUs (hint: add --dry-run to see the plan for that node; drop %s to "
             "run on this one)", opt, opt);
    return RR_EX_USAGE;
}
