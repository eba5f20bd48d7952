/* The subcommands, each a slice of the pipeline. Every one returns rdmarun's
 * exit status. */
#ifndef RDMARUN_COMMANDS_H
#define RDMARUN_COMMANDS_H
#include "cmd/options.h"
#include "profile/profile.h"

int cmd_profiles(const struct cmdline *cl, const struct strvec *dirs);
int cmd_profiles_show(const struct cmdline *cl, const struct strvec *dirs);
int cmd_probe(const struct cmdline *cl);
int cmd_verify(const struct cmdline *cl);
int cmd_check(const struct cmdline *cl);
int cmd_rank(const struct cmdline *cl);
int cmd_compare(const struct cmdline *cl);
int cmd_run(const struct cmdline *cl, const struct strvec *dirs);

#endif
