/* What a profile may contain: its sections, their keys and the type of each
 * value. Sections whose keys belong to another tool ([ucx], [nccl], [mpi],
 * [env]) are open: their key names are checked against that tool. */
#ifndef RDMARUN_SCHEMA_H
#define RDMARUN_SCHEMA_H
#include <stdbool.h>
#include <stddef.h>

/* VT_COUNT: a whole number >= 1 (a time limit of 0 would fail every check);
 * VT_PORTS: DEV or DEV:PORT items, PORT 1-255 as verbs numbers them. */
enum vtype { VT_STRING, VT_BOOL, VT_SIZE, VT_UINT, VT_COUNT, VT_ENUM, VT_LIST, VT_PORTS };

/* One key of a fixed section, as UCX's ucs_config_field_t: its name, type,
 * what it takes, what it does, and its default, which stands here once
 * (etc/check.ini and the man pages are held to it by tests/defaults.sh). */
struct keydef {
    const char *name;
    enum vtype type;
    const char *choices;   /* VT_ENUM: "a|b|c"; VT_SIZE: extra words such as "unlimited" */
    const char *doc;
    const char *dflt;      /* the value when unset, or NULL: the check is off, or none */
};

enum keyset {
    KEYS_FIXED, /* the keydefs below */
    KEYS_UCX,   /* UCX configuration variables without the UCX_ prefix (values checked by UCX) */
    KEYS_VARS,  /* a library's environment variables without its prefix (NCCL_, FI_, ...) */
    KEYS_MCA,   /* Open MPI MCA parameter names */
    KEYS_ENV,   /* any environment variable name */
};

/* One section of a profile, as a row: what its keys are, and for a
 * library's variables, the prefix the job's environment spells them with,
 * whose they are, and how a name is known (NULL: any name, checked by the
 * program's own library when the job runs). */
struct strvec;
struct sectiondef {
    const char *name;
    enum keyset keyset;
    const struct keydef *keys;  /* KEYS_FIXED only; ends with a NULL name */
    const char *doc;
    const char *prefix;         /* "UCX_", "NCCL_", "OMPI_MCA_"; NULL: fixed keys, [env] */
    const char *library;        /* "NCCL", "libfabric", ... for messages */
    /* Whether the library has the variable (name without the prefix); when
     * not, a near name or NULL in *suggestion (caller frees). */
    bool (*known)(const char *name, char **suggestion);
    void (*names)(struct strvec *out);   /* every name known, for --keys; NULL: none */
    const char *hint;           /* where the full list is, or what to do with a newer name */
    bool from_env;              /* its variables in the job's environment are overrides */
};

extern const struct sectiondef schema_sections[];
extern const size_t schema_nsections;

const struct sectiondef *schema_section(const char *name);
/* The canonical spelling of `key` in `sec` (ucx/nccl upper case without the
 * tool prefix, fixed keys lower case with '-'), or NULL with *why set when the
 * name cannot be a key of that section. Caller frees. */
char *schema_canonical_key(const struct sectiondef *sec, const char *key, char **why);
const struct keydef *schema_key(const struct sectiondef *sec, const char *key);
/* Check a value against its key's type; on failure *why says what is expected. */
bool schema_check_value(const struct keydef *kd, const char *value, char **why);
/* The section whose variables `name` (PREFIX + rest) is, with *rest after the
 * prefix; NULL when no section's prefix fits. */
const struct sectiondef *schema_section_of_var(const char *name, const char **rest);
/* Whether `name` (without the prefix) is a variable of `sec`'s library;
 * sections without a list take any name. */
bool schema_var_known(const struct sectiondef *sec, const char *name, char **suggestion);
/* Keys whose value `auto` rdmarun resolves from the node's facts. */
bool schema_resolvable(const char *section, const char *key);

#endif
