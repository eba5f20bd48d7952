/* UCX's own view of UCX_* settings: which variables exist, whether a value
 * parses, and which transports and aliases UCX_TLS may name. Everything is
 * asked of the installed UCX through its API, never copied into rdmarun. */
#ifndef RDMARUN_UCX_CONFIG_H
#define RDMARUN_UCX_CONFIG_H
#include "util/strvec.h"
#include <stdbool.h>

const char *ucx_config_version(void);
/* Whether UCX_<name> is a configuration variable of this UCX (the list
 * 'ucx_info -c -f' prints, hidden ones included). When not, *suggestion is the
 * closest existing name without prefix, or NULL. */
bool ucx_config_known(const char *name, char **suggestion);
/* Every configuration variable of this UCX, without the UCX_ prefix. */
const struct strvec *ucx_config_names(void);
/* Check a value with UCX's parser for that variable and, for TLS, each
 * transport name. On failure *why is UCX's own reason. When the value is valid
 * only in a spelling UCX does not take (8MiB), *fixed is the byte count to
 * use instead. */
bool ucx_config_check(const char *name, const char *value, char **why, char **fixed);
/* The values UCX takes for UCX_<name> when it is one of a fixed set (an
 * enumeration, a yes/no): appended to out, true; false for any other kind. */
bool ucx_config_choices(const char *name, struct strvec *out);
/* UCX_<name>'s default as UCX's table writes it ("auto", "all", "8k"), or NULL. */
const char *ucx_config_default(const char *name);
/* Whether `tl` (without ^ or :aux) is a transport or alias this UCX knows. */
bool ucx_transport_known(const char *tl, char **suggestion);

#endif
