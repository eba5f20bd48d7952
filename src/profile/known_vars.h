/* The variables of the libraries a profile configures that have no API to
 * list them: tables taken from each library's source (the file named at
 * each table), and libfabric's, which asks the providers loaded here
 * (fi_config.c) and keeps a table for the providers this node lacks. */
#ifndef RDMARUN_KNOWN_VARS_H
#define RDMARUN_KNOWN_VARS_H
#include <stdbool.h>
#include <stddef.h>

struct strvec;

/* Each: whether NAME (without the library's prefix) is one of its
 * variables; when not, the nearest name or NULL in *suggestion (caller
 * frees). */
bool nccl_var_known(const char *name, char **suggestion);
bool ofi_nccl_var_known(const char *name, char **suggestion);
bool cray_mpich_var_known(const char *name, char **suggestion);
bool libfabric_var_known(const char *name, char **suggestion);
/* Every name each knows, without its prefix, for 'rdmarun profiles --keys'. */
void nccl_var_names(struct strvec *out);
void ofi_nccl_var_names(struct strvec *out);
void cray_mpich_var_names(struct strvec *out);
void libfabric_var_names(struct strvec *out);
/* The libfabric provider whose variable NAME is (without FI_): "efa",
 * "cxi", "core" for libfabric's own; NULL when none is known. */
const char *libfabric_var_provider(const char *name);

/* libfabric's own answer (fi_config.c): the variables the providers loaded
 * here define (fi_getparams after fi_getinfo), without FI_; NULL when
 * libfabric gave none. Kept for the process. */
const struct strvec *fi_config_params(void);
/* libfabric's version here, "1.17" (fi_version: major and minor). */
const char *fi_config_version(void);

#endif
