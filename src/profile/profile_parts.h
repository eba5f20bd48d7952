/* The profile folder's parts (profile.c, load.c): what reading a file
 * shares with the overrides and the value checks. */
#ifndef RDMARUN_PROFILE_PARTS_H
#define RDMARUN_PROFILE_PARTS_H

#include "profile/profile.h"
#include "profile/schema.h"
#include <stdbool.h>

#define PROFILE_MAX_BYTES (1024 * 1024) /* a profile is a page of text, not a data set */
#define PROFILE_MAX_LINE INI_LINE_MAX

/* Canonical (section, key) or an error message (*why, caller frees). */
bool profile_resolve_name(const char *section, const char *key,
                          const struct sectiondef **sec_out, char **key_out, char **why);
/* Whether the entry's value is one its key takes; *why when not. */
bool profile_entry_valid(struct entry *e, char **why);
/* An entry's refused value, said at its file:line. */
void profile_value_error(const struct entry *e, const char *why);
void profile_entries_free(struct entry *e, size_t n);
bool profile_is_file(const char *path);

#endif
