/* The subcommands, each a slice of the pipeline, in one table: its word,
 * its handler and its usage line. Every handler returns rdmarun's exit
 * status. */
#ifndef RDMARUN_COMMANDS_H
#define RDMARUN_COMMANDS_H
#include "cmd/options.h"

struct command_def {
    const char *name;          /* the word after rdmarun; NULL: the default (run) */
    enum command id;
    int (*run)(const struct cmdline *cl);
    const char *usage;         /* after "rdmarun ", one or more lines */
    const char *summary;       /* one sentence: what it does (its --help) */
    const char *words, *brief; /* its line in rdmarun --help ("verify LOG_OR_DIR...",
                                  what it does); NULL: not listed (run, the helpers) */
};

extern const struct command_def commands[];
extern const size_t ncommands;
/* The command for a word, or NULL. */
const struct command_def *command_named(const char *word);
const struct command_def *command_of(enum command id);

/* Before the command line is read: an invocation of the drop-in wrapper
 * that launches nothing goes to the real launcher (launch.h); -1: go on. */
int cmd_wrapped(int argc, char **argv);
/* What the command line says of rdmarun's own output (--color), before any
 * command runs. */
void cmd_output(const struct cmdline *cl);
int cmd_run(const struct cmdline *cl);
int cmd_profiles(const struct cmdline *cl);
int cmd_probe(const struct cmdline *cl);
int cmd_verify(const struct cmdline *cl);
int cmd_check(const struct cmdline *cl);
int cmd_rank(const struct cmdline *cl);
int cmd_path_peer(const struct cmdline *cl);
int cmd_compare(const struct cmdline *cl);
int cmd_tune(const struct cmdline *cl);
int cmd_report(const struct cmdline *cl);
int cmd_judge(const struct cmdline *cl);
int cmd_help(const struct cmdline *cl);
int cmd_version(const struct cmdline *cl);

#endif
