#include "cmd/options.h"
#include "cmd/commands.h"
#include "launch/launch.h"
#include "plan/launchers.h"
#include "launch/launcher_options.h"
#include "launch/program_mpi.h"
#include "profile/profile.h"
#include "profile/settings.h"
#include "util/msg.h"
#include "util/options.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_job_options(const struct cmdline *cl, struct strvec *argv)
{
    for (size_t k = 0; k < cli_noptions; k++) {
        const struct opt *o = &cli_options[k];
        if ((o->scope & (CMD_RUN | CMD_TUNE)) == (CMD_RUN | CMD_TUNE) &&
            strcmp(o->name, "profile") != 0)
            opt_write(o, 1, CMD_RUN, cl, argv);
    }
}

bool cli_gid_index(const char *value, long *out)
{
    *out = -1;
    if (!value || parse_long(value, 0, 255, out))
        return true;
    rr_error("--gid-index %s: expected a GID table index from 0 to 255", value);
    return false;
}

bool cli_provider_ok(const char *option, const char *value)
{
    size_t n = value ? strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_-;") : 0;
    if (value && *value && !value[n] && n <= 64)
        return true;
    rr_error("%s: expected a libfabric provider's name (letters, digits, '_', '-', ';', as "
             "'fi_info -l' lists them: efa, cxi, opx, tcp, verbs;ofi_rxm)", option);
    return false;
}

/* The launcher the command line names (--launcher, --mpirun), read before
 * the words are parsed, for the launcher's options: known from the launcher
 * itself (launch/launcher_options.c), asked the first time a word is not
 * rdmarun's own. */
static struct {
    enum launcher kind;
    bool named;         /* --launcher, --mpi (or --set profile.launcher=, profile.mpi=) said */
    int argc;           /* the words, for the program's MPI (mpi_of_words) */
    char **argv;
    const char *path;   /* --mpirun */
    const char *profile;   /* -p, --profile */
    bool have;
    struct launcher_opts opts;
} launcher;

/* The value of option `name` (or its alias) at argv[*i], or NULL. */
static const char *value_of(const char *name, const char *alias, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    size_t len = strlen(name);
    if (strncmp(a, "--", 2) == 0 && strncmp(a + 2, name, len) == 0 && a[2 + len] == '=')
        return a + 3 + len;
    bool word = (strncmp(a, "--", 2) == 0 && strcmp(a + 2, name) == 0) ||
                (alias && strcmp(a, alias) == 0);
    return word && *i + 1 < argc ? argv[++*i] : NULL;
}

/* The launcher a --launcher or --mpi word names. */
static void name_launcher(const char *launcher_word, const char *mpi_word)
{
    int l = launcher_word ? name_index(launcher_words(), launcher_word) : -1;
    if (l >= 0 || (mpi_word && name_index(mpi_family_names, mpi_word) >= 0)) {
        launcher.kind = l >= 0 ? (enum launcher)l
                      : strcmp(mpi_word, "mpich") == 0 ? LAUNCHER_HYDRA : LAUNCHER_MPIRUN;
        launcher.named = true;
    }
}

static void launcher_named(int argc, char **argv)
{
    memset(&launcher, 0, sizeof(launcher));
    launcher.argc = argc;
    launcher.argv = argv;
    const char *named = NULL, *mpi = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v;
        if ((v = value_of("launcher", NULL, argc, argv, &i))) {
            named = v;
        } else if ((v = value_of("mpi", NULL, argc, argv, &i))) {
            mpi = v;
        } else if ((v = value_of("set", NULL, argc, argv, &i))) {
            if (starts_with(v, "profile.launcher="))
                named = v + strlen("profile.launcher=");
            else if (starts_with(v, "profile.mpi="))
                mpi = v + strlen("profile.mpi=");
        } else if ((v = value_of("mpirun", NULL, argc, argv, &i))) {
            launcher.path = v;
        } else if ((v = value_of("profile", "-p", argc, argv, &i))) {
            launcher.profile = v;
        }
    }
    name_launcher(named, mpi);
}

/* The MPI of the job's program, read ahead of the parse that finds it: the
 * first word that names an MPI program (a launcher option's value, "4",
 * "ppr:1:node", a hostfile, is none). -1: none. */
static int mpi_of_words(char **libpath)
{
    *libpath = NULL;
    for (int i = 1; i < launcher.argc && strcmp(launcher.argv[i], "--") != 0; i++) {
        if (launcher.argv[i][0] == '-')
            continue;
        int mpi = program_mpi(launcher.argv[i], NULL, libpath);
        if (mpi >= 0)
            return mpi;
    }
    return -1;
}

/* The launcher the profile names ([profile] launcher), when the command line
 * names none: read ahead, silently (the run reads it again and says what is
 * wrong with it). */
static void profile_launcher(void)
{
    const char *name = launcher.profile ? launcher.profile : getenv("RDMARUN_PROFILE");
    if (!name || !*name)
        name = "auto";
    if (strchr(name, ','))   /* compare's list: each its own launcher */
        return;
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    struct profile p;
    char *muted;   /* its errors are said when the run reads it */
    msg_capture(&muted);
    if (profile_load(name, &dirs, &p) == 0)
        name_launcher(profile_value(&p, "profile", "launcher"), profile_value(&p, "profile", "mpi"));
    msg_capture(NULL);
    free(muted);
    profile_free(&p);
    sv_free(&dirs);
}

static struct launcher_opts *launcher_opts(void)
{
    if (!launcher.have) {
        if (!launcher.named)
            profile_launcher();
        char *libpath = NULL;
        int mpi = launcher.named ? -1 : mpi_of_words(&libpath);
        if (!launcher.named && mpi < 0)
            mpi = launch_wrapped_mpi();   /* a script through the mpiexec.hydra wrapper */
        if (MPI_MPICH_ABI(mpi))
            launcher.kind = LAUNCHER_HYDRA;
        /* exec's COMMAND, Flux and PALS take mpirun's words for what they
         * are told (-np, -x), translated by the plan (plan/job_words.c). */
        launcher.kind = launcher_of(launcher.kind)->help;
        bool on_path;
        char *path = launch_find(launcher_of(launcher.kind), launcher.path, libpath, &on_path);
        launcher_options_of(path, launcher.kind, &launcher.opts);
        free(path);
        free(libpath);
        launcher.have = true;
    }
    return &launcher.opts;
}

/* The launcher as messages name it ("mpirun 4.1.4", "srun"). */
static const char *launcher_word(void)
{
    return launcher.opts.label ? launcher.opts.label : launcher_of(launcher.kind)->word;
}

/* An option's name as the launchers list it: without dashes, before '='. */
static char *word_name(const char *word)
{
    const char *n = word + strspn(word, "-");
    return xstrndup(n, strcspn(n, "="));
}

/* The words after launcher option `word`; -1: not the launcher's. A value
 * given as --name=VALUE (srun's form) is in the word itself. */
static int opt_nargs(const char *word)
{
    char *name = word_name(word);
    int n = launcher_option_nargs(launcher_opts(), name);
    free(name);
    return n > 0 && strchr(word, '=') ? 0 : n;
}

/* Whether table row o is spelled `word` (--name, --name=VALUE, its alias). */
static bool spelled(const struct opt *o, const char *word)
{
    size_t len = strlen(o->name);
    return (starts_with(word, "--") && strncmp(word + 2, o->name, len) == 0 &&
            (word[2 + len] == '\0' || word[2 + len] == '=')) ||
           (o->alias && strcmp(word, o->alias) == 0);
}

static const char *command_word(enum command c)
{
    return c == CMD_RUN ? "the run command" : command_of(c)->name;
}

/* An option of another command: a usage error that names the commands
 * that take it. true when it is one (said). */
static bool other_command(enum command cmd, const char *word)
{
    struct strvec owners = {0};
    for (size_t k = 0; k < cli_noptions; k++)
        if (spelled(&cli_options[k], word) && !(cli_options[k].scope & cmd))
            for (size_t c = 0; c < ncommands; c++)
                if ((cli_options[k].scope & commands[c].id) && commands[c].usage)
                    sv_pushf(&owners, commands[c].name ? "'rdmarun %s'" : "%sthe run command",
                             commands[c].name ? commands[c].name : "");
    for (size_t k = 0; k < nrank_options && cmd != CMD_RANK; k++)
        if (spelled(&rank_options[k], word) && sv_find(&owners, "'rdmarun rank'") < 0)
            sv_push(&owners, "'rdmarun rank'");
    if (owners.n) {
        char *who = sv_join(&owners, " or ");
        const char *w = command_word(cmd);
        rr_error("%.*s is an option of %s, not of %s%s%s (hint: rdmarun --help)",
                 (int)strcspn(word, "="), word, who, cmd == CMD_RUN ? "" : "'", w,
                 cmd == CMD_RUN ? "" : "'");
        free(who);
    }
    bool any = owners.n > 0;
    sv_free(&owners);
    return any;
}

/* The spelling closest to `word` among rdmarun's options of `cmd` and, when
 * given, the launcher's (a count glued to its option first: "-np 2"); NULL
 * when none is near. Owned by a static buffer. */
static const char *near_option(enum command cmd, const char *word, const struct launcher_opts *lo)
{
    static char best[128];
    if (cmd & (CMD_RUN | CMD_COMPARE | CMD_TUNE | CMD_CHECK) &&
        cli_glued_count(word, best, sizeof(best)))
        return best;
    struct strvec cands = {0};
    for (size_t k = 0; k < cli_noptions; k++)
        if (cli_options[k].scope & cmd) {
            sv_pushf(&cands, "--%s", cli_options[k].name);
            if (cli_options[k].alias)
                sv_push(&cands, cli_options[k].alias);
        }
    sv_push(&cands, "--help");
    sv_push(&cands, "--version");
    for (size_t k = 0; lo && k < lo->names.n; k++)
        sv_pushf(&cands, "%s%s", lo->names.v[k][1] ? "--" : "-", lo->names.v[k]);
    char *w = xstrndup(word, strcspn(word, "="));
    const char *s = suggest(w, (const char *const *)cands.v, cands.n);
    snprintf(best, sizeof(best), "%s", s ? s : "");
    free(w);
    sv_free(&cands);
    return *best ? best : NULL;
}

/* Hydra's -genv and -env take NAME VALUE, or NAME=VALUE as one word (its
 * utils.c genv_fn): the words `word` takes when `next` follows it. */
static int hydra_pair(const char *word, const char *next, int nargs)
{
    const char *name = word + strspn(word, "-");
    return launcher.kind == LAUNCHER_HYDRA && nargs == 2 && next && strchr(next, '=') &&
           (strcasecmp(name, "genv") == 0 || strcasecmp(name, "env") == 0) ? 1 : nargs;
}

/* A word of the command line that is not one of rdmarun's options for this
 * command: the launcher's (its words after it, >= 0), or a usage error
 * (-1, said). When the launcher could not be asked, a word near none of
 * rdmarun's options goes to it as before (0). */
static int foreign_option(enum command cmd, const char *word)
{
    if (cmd & (CMD_RUN | CMD_COMPARE | CMD_CHECK | CMD_TUNE)) {
        int n = opt_nargs(word);
        if (n >= 0)
            return n;
    }
    if (other_command(cmd, word))
        return -1;
    bool launches = cmd & (CMD_RUN | CMD_COMPARE | CMD_CHECK | CMD_TUNE);
    const struct launcher_opts *lo = launches ? launcher_opts() : NULL;
    const char *near = near_option(cmd, word, lo && lo->asked ? lo : NULL);
    if (lo && !lo->asked && !near)
        return 0;
    int len = (int)strcspn(word, "=");
    if (!launches)
        rr_error("unknown option %.*s for '%s' (%s%s%s)", len, word, command_of(cmd)->name,
                 near ? "did you mean " : "hint: rdmarun --help", near ? near : "", near ? "?" : "");
    else
        rr_error("unknown option %.*s (not rdmarun's, %s %s%s; %s%s%s)", len, word,
                 lo->asked ? "not" : "and", lo->label,
                 lo->asked ? "'s" : " could not be asked for its options",
                 near ? "did you mean " : "hint: rdmarun --help", near ? near : "",
                 near ? "?" : "");
    return -1;
}

/* -np/-n/-c and -N/-npernode take a count of processes: a whole number >= 1,
 * as mpirun needs (rdmarun would plan for a count mpirun refuses). */
#define MAX_PROCESSES (1L << 30)   /* past any machine; mpirun's counts are ints */

static bool process_count(const char *option, const char *value, long *out)
{
    if (parse_long(value, 1, MAX_PROCESSES, out))
        return true;
    rr_error("%s needs a number of processes (a whole number from 1 to %ld), not '%s'", option,
             MAX_PROCESSES, value);
    return false;
}

/* What an mpirun option says that the plan needs; false on a bad value. */
static bool note_override(struct job_args *job, const char *name, char **argv, int i)
{
    if ((strcmp(name, "np") == 0 || strcmp(name, "n") == 0 || strcmp(name, "c") == 0) &&
        !process_count(argv[i], argv[i + 1], &job->np))
        return false;
    if ((strcmp(name, "N") == 0 || strcmp(name, "npernode") == 0) &&
        !process_count(argv[i], argv[i + 1], &job->ppn))
        return false;
    if (strcmp(name, "app") == 0) {
        free(job->appfile);
        job->appfile = xstrdup(argv[i + 1]);
    }
    if (strcmp(name, "x") == 0) {
        char *var = xstrndup(argv[i + 1], strcspn(argv[i + 1], "="));
        sv_push(&job->user_env, var);
        free(var);
    } else if (strcmp(name, "mca") == 0 || strcmp(name, "gmca") == 0) {
        sv_push(&job->user_mca, argv[i + 1]);
    }
    if (strcmp(name, "map-by") == 0) {
        free(job->map_by);
        job->map_by = xstrdup(argv[i + 1]);
    }
    if (strcmp(name, "map-by") == 0 || strcmp(name, "bind-to") == 0 ||
        strcmp(name, "rank-by") == 0 || strcmp(name, "report-bindings") == 0)
        sv_push(&job->user_opts, name);
    return true;
}

/* One app context's words: its mpirun options, then PROGRAM ARGS up to the
 * next ":" (or the end). Its -np adds to the job's. Returns the words used,
 * or -1 on an error (said). */
int cli_parse_context(struct job_args *job, char **words, int n, struct app_context *c)
{
    memset(c, 0, sizeof(*c));
    long np = job->np;
    job->np = -1;
    int i = 0;
    for (; i < n && words[i][0] == '-' && words[i][1] && strcmp(words[i], "--") != 0; i++) {
        const char *name = words[i] + (words[i][1] == '-' ? 2 : 1);
        int nargs = foreign_option(CMD_RUN, words[i]);
        if (nargs < 0)
            return -1;
        nargs = hydra_pair(words[i], i + 1 < n ? words[i + 1] : NULL, nargs);
        if (i + nargs >= n) {
            rr_error("%s option %s needs %d argument%s", launcher_word(),
                     words[i], nargs, nargs > 1 ? "s" : "");
            return -1;
        }
        if (!note_override(job, name, words, i))
            return -1;
        for (int k = 0; k <= nargs; k++)
            sv_push(&c->args, words[i + k]);
        i += nargs;
    }
    if (i < n && strcmp(words[i], "--") == 0)
        i++;
    for (; i < n && strcmp(words[i], ":") != 0; i++)
        sv_push(&c->program, words[i]);
    if (c->program.n == 0) {
        rr_error("an app context has no program (hint: rdmarun -np 1 a : -np 1 b)");
        return -1;
    }
    job->np = np >= 0 && job->np >= 0 ? np + job->np : np >= 0 ? np : job->np;
    return i;
}

/* PROGRAM ARGS [: [OPTIONS] PROGRAM ARGS]...: the first context's program
 * stays in job->program, the others become job->contexts. */
static int split_contexts(struct job_args *job)
{
    struct strvec all = job->program;
    memset(&job->program, 0, sizeof(job->program));
    size_t i = 0;
    for (; i < all.n && strcmp(all.v[i], ":") != 0; i++)
        sv_push(&job->program, all.v[i]);
    int rc = 0;
    while (rc == 0 && i < all.n) {
        i++;   /* the ":" */
        GROW(job->contexts, job->ncontexts_cap, job->ncontexts + 1);
        int used = cli_parse_context(job, all.v + i, (int)(all.n - i), &job->contexts[job->ncontexts]);
        if (used < 0) {
            sv_free(&job->contexts[job->ncontexts].args);
            sv_free(&job->contexts[job->ncontexts].program);
            rc = RR_EX_USAGE;
            break;
        }
        job->ncontexts++;
        i += (size_t)used;
    }
    sv_free(&all);
    return rc;
}

/* One of rdmarun's own options, of the helper's (rdmarun rank) or of
 * either table's: 1 when taken, 0 when not one of them, -1 on an error. */
static int own_option(struct cmdline *cl, int argc, char **argv, int *i)
{
    int r = 0;
    if (cl->command == CMD_RANK)
        r = opt_parse(rank_options, nrank_options, 1, &cl->rank, argc, argv, i);
    return r ? r : opt_parse(cli_options, cli_noptions, cl->command, cl, argc, argv, i);
}

/* launcher exec: the plan gives the helper its options in the environment,
 * for the workers COMMAND starts as `rdmarun rank -- PROGRAM`; options on
 * the helper's own command line win over them. */
static int rank_env_options(struct cmdline *cl)
{
    const char *env = getenv("RDMARUN_RANK_OPTIONS");
    struct strvec words = {0}, all = {0};
    if (env)
        sv_split(&all, env, " ");
    for (size_t i = 0; i < all.n; i++)
        if (*all.v[i])
            sv_push(&words, all.v[i]);
    int rc = 0;
    for (int i = 0; i < (int)words.n && !rc; i++) {
        int r = opt_parse(rank_options, nrank_options, 1, &cl->rank, (int)words.n, words.v, &i);
        if (r == 0)
            rr_error("RDMARUN_RANK_OPTIONS: '%s' is not an option of 'rdmarun rank' (the plan "
                     "of another rdmarun version set it? hint: unset RDMARUN_RANK_OPTIONS)",
                     words.v[i]);
        rc = r <= 0 ? RR_EX_USAGE : 0;
    }
    sv_free(&words);
    sv_free(&all);
    return rc;
}

/* The options from argv[*i] on, until the program: rdmarun's own, and the
 * launcher's kept verbatim with their arguments. 0, 1 when --help or
 * --version ended the parse, or the status. */
static int parse_options(int argc, char **argv, struct cmdline *cl, int *i)
{
    for (; *i < argc; (*i)++) {
        const char *a = argv[*i];
        if (strcmp(a, "--") == 0) {
            (*i)++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (!(cl->command & (CMD_PROFILES | CMD_VERIFY | CMD_REPORT | CMD_JUDGE)))
                break;
            sv_push(&cl->job.program, a);   /* 'profiles' words; verify, report, judge paths */
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cl->help_for = cl->command;
            cl->help_all = *i + 1 < argc && strcmp(argv[*i + 1], "all") == 0;
            cl->command = CMD_HELP;
            return 1;
        }
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            cl->command = CMD_VERSION;
            return 1;
        }
        int taken = own_option(cl, argc, argv, i);
        if (taken < 0)
            return RR_EX_USAGE;
        if (taken)
            continue;
        int nargs = foreign_option(cl->command, a);
        if (nargs < 0)
            return RR_EX_USAGE;
        nargs = hydra_pair(a, *i + 1 < argc ? argv[*i + 1] : NULL, nargs);
        const char *name = a + (a[1] == '-' ? 2 : 1);
        if (*i + nargs >= argc) {
            rr_error("%s option %s needs %d argument%s", launcher_word(), a,
                     nargs, nargs > 1 ? "s" : "");
            return RR_EX_USAGE;
        }
        if (!note_override(&cl->job, name, argv, *i))
            return RR_EX_USAGE;
        for (int k = 0; k <= nargs; k++)
            sv_push(&cl->job.mpirun_args, argv[*i + k]);
        *i += nargs;
    }
    return 0;
}

/* rdmarun help [all | CMD]: the command whose help is asked for. 0, or the
 * status when CMD is none. */
static int help_words(struct cmdline *cl, struct strvec *words)
{
    if (words->n == 1 && strcmp(words->v[0], "all") == 0) {
        cl->help_all = true;
        sv_free(words);
    }
    if (words->n != 1)
        return 0;
    const struct command_def *c = strcmp(words->v[0], "run") == 0 ? &commands[0]
                                : command_named(words->v[0]);
    if (!c) {
        const char *names[16] = {"run"};
        size_t n = 1;
        for (size_t k = 0; k < ncommands && n < 16; k++)
            if (commands[k].name)
                names[n++] = commands[k].name;
        const char *s = suggest(words->v[0], names, n);
        rr_error("help: no command '%s'%s%s%s (hint: rdmarun --help)", words->v[0],
                 s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
        return RR_EX_USAGE;
    }
    cl->help_for = c->id;
    sv_free(words);
    return 0;
}

/* The words after the options, as the command takes them: 0, or the
 * status after saying what is missing or too much. */
static int check_words(struct cmdline *cl)
{
    struct strvec *words = &cl->job.program;
    if (cl->command == CMD_HELP && help_words(cl, words) != 0)
        return RR_EX_USAGE;
    if (cl->command == CMD_PROFILES && words->n > 0) {
        if (strcmp(words->v[0], "show") != 0 || words->n != 2) {
            const char *show[] = {"show"}, *s = suggest(words->v[0], show, 1);
            rr_error("usage: rdmarun profiles [--json] | rdmarun profiles show [--json] NAME%s",
                     s && strcmp(words->v[0], "show") != 0 ? " (did you mean 'show'?)" : "");
            return RR_EX_USAGE;
        }
        cl->show_name = xstrdup(words->v[1]);
        sv_free(words);
    }
    if ((cl->command & (CMD_RUN | CMD_RANK) || (cl->command == CMD_COMPARE && !cl->resume)) &&
        words->n == 0 && !(cl->job.appfile && cl->command & CMD_RUN)) {
        rr_error("no program to run (hint: rdmarun [options] PROGRAM [ARGS]; rdmarun --help)");
        return RR_EX_USAGE;
    }
    if (cl->command == CMD_REPORT && words->n == 0) {
        rr_error("'report' needs folders or files of records (hint: rdmarun report "
                 "rdmarun-evidence /var/log/rdmarun-checks)");
        return RR_EX_USAGE;
    }
    if (cl->command == CMD_JUDGE && words->n == 0) {
        rr_error("'judge' needs benchmark outputs (hint: rdmarun judge all_reduce_perf.log; "
                 "- reads standard input)");
        return RR_EX_USAGE;
    }
    if (cl->command == CMD_VERIFY && words->n == 0) {
        rr_error("'verify' needs log files or directories (hint: rdmarun verify "
                 "rdmarun-evidence/JOB)");
        return RR_EX_USAGE;
    }
    if (!(cl->command & (CMD_RUN | CMD_VERIFY | CMD_RANK | CMD_COMPARE | CMD_TUNE | CMD_REPORT |
                         CMD_JUDGE)) &&
        words->n > 0) {
        rr_error("unexpected argument '%s' (hint: rdmarun --help)", words->v[0]);
        return RR_EX_USAGE;
    }
    return 0;
}

/* The words of `rdmarun OPTIONS COMMAND ARGS` as `rdmarun COMMAND OPTIONS
 * ARGS` (git's and ip's order), kept until cli_free: the options read
 * keep pointers into them. */
static char **reordered;

/* argv with argv[at], a command's name after options, moved to the front,
 * parsed again; a note on how to run a program of that name. */
static int parse_command_first(int argc, char **argv, int at, struct cmdline *cl)
{
    char **v = xcalloc((size_t)argc + 1, sizeof(char *));
    v[0] = argv[0];
    v[1] = argv[at];
    for (int k = 1, n = 2; k < argc; k++)
        if (k != at)
            v[n++] = argv[k];
    cli_free(cl);
    int rc = cli_parse(argc, v, cl);
    free(reordered);
    reordered = v;
    if (rc)
        rr_note("'%s' is rdmarun's command, read with the options before it as its own (a "
                "program named %s: ./%s, or after --)", argv[at], argv[at], argv[at]);
    return rc;
}

int cli_parse(int argc, char **argv, struct cmdline *cl)
{
    memset(cl, 0, sizeof(*cl));
    cl->job.np = cl->job.ppn = -1;
    cl->command = CMD_RUN;
    int i = 1;
    const struct command_def *named = i < argc ? command_named(argv[i]) : NULL;
    if (named) {
        cl->command = named->id;
        i++;
    } else if (i < argc && cli_near_command(argv[i])) {
        return RR_EX_USAGE;
    }
    launcher_named(argc, argv);
    if (cl->command == CMD_RANK && rank_env_options(cl) != 0)
        return RR_EX_USAGE;
    int rc = parse_options(argc, argv, cl, &i);
    if (rc)
        return rc == 1 ? 0 : rc;
    bool after_dashes = i > 1 && strcmp(argv[i - 1], "--") == 0;
    if (cl->command == CMD_RUN && i > 1 && i < argc && !after_dashes && command_named(argv[i]))
        return parse_command_first(argc, argv, i, cl);
    for (; i < argc; i++)
        sv_push(&cl->job.program, argv[i]);
    if (cl->command == CMD_RUN && split_contexts(&cl->job) != 0)
        return RR_EX_USAGE;
    if (check_words(cl) != 0 || cli_recorded_node(cl) != 0 || cli_program_words(cl) != 0)
        return RR_EX_USAGE;
    struct stat st;
    int missing = cl->sysfs && stat(cl->sysfs, &st) != 0 ? errno : 0;
    if (cl->sysfs && (missing || !S_ISDIR(st.st_mode))) {
        /* (read as an empty node, it would plan as one without a word) */
        rr_error("--sysfs %s: %s (hint: a folder recorded from a node's /sys)", cl->sysfs,
                 missing ? strerror(missing) : "not a folder");
        return RR_EX_NOINPUT;
    }
    return 0;
}

void cli_free(struct cmdline *cl)
{
    free(reordered);
    reordered = NULL;
    launcher_options_free(&launcher.opts);
    launcher.have = false;
    opt_free(cli_options, cli_noptions, cl);
    rank_args_free(&cl->rank);
    free(cl->show_name);
    free(cl->job.map_by);
    sv_free(&cl->job.mpirun_args);
    sv_free(&cl->job.user_env);
    sv_free(&cl->job.user_mca);
    sv_free(&cl->job.user_opts);
    sv_free(&cl->job.program);
    free(cl->job.appfile);
    job_contexts_free(&cl->job);
}
