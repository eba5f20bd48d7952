/* A growable, NULL-terminated vector of owned strings (argv, lists). */
#ifndef RDMARUN_STRVEC_H
#define RDMARUN_STRVEC_H
#include <stddef.h>

struct strvec {
    char **v;   /* always NULL-terminated once anything was pushed */
    size_t n, cap;
};

void sv_push(struct strvec *sv, const char *s);
void sv_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sv_append(struct strvec *sv, const struct strvec *other);
int sv_find(const struct strvec *sv, const char *s);   /* index or -1 */
void sv_free(struct strvec *sv);
/* Split `s` on `sep` characters, trimming blanks and dropping empty items. */
void sv_split(struct strvec *sv, const char *s, const char *sep);
/* Join with `sep` into a new string. */
char *sv_join(const struct strvec *sv, const char *sep);

#endif
