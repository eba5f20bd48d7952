/* Small string helpers used across rdmarun. */
#ifndef RDMARUN_TEXT_H
#define RDMARUN_TEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copy of s[0..len) without leading and trailing blanks. */
char *trim_dup(const char *s, size_t len);
/* Quote for a POSIX shell only where needed, so the output is copy-pasteable. */
char *shell_quote(const char *s);
/* 16 random hex digits and a NUL: a word no other process can guess. */
void random_word(char out[17]);
/* Case-insensitive edit distance. */
size_t edit_distance(const char *a, const char *b);
/* The candidate closest to `word`, or NULL when none is close enough to be a
 * plausible typo. */
const char *suggest(const char *word, const char *const *cands, size_t n);
bool str_ieq(const char *a, const char *b);
bool starts_with(const char *s, const char *prefix);
/* FNV-1a, 64 bits, of n bytes, continuing from h (FNV1A_INIT to start):
 * hash tables, cache keys, fingerprints. */
#define FNV1A_INIT 0xcbf29ce484222325ULL
uint64_t fnv1a(uint64_t h, const void *data, size_t n);
bool ends_with(const char *s, const char *suffix);
/* Upper-case copy, with '-' turned into '_' (profile key -> variable name). */
char *to_var_name(const char *s);
/* Parse a yes/no word; returns false when `s` is not a boolean. */
bool parse_bool(const char *s, bool *out);
/* A whole decimal number from lo to hi, nothing around it. */
bool parse_long(const char *s, long lo, long hi, long *out);
/* A whole decimal number as %g writes one (no blanks, inf, nan or hex),
 * from lo to hi. */
bool parse_real(const char *s, double lo, double hi, double *out);
/* Seconds: a number above 0 and at most max, nothing around it. */
bool parse_seconds(const char *s, double max, double *out);
/* Compare dotted versions numerically ("1.9" < "1.13"): <0, 0, >0. */
int version_cmp(const char *a, const char *b);
/* s as it may reach a terminal: control characters (an escape sequence, a
 * newline, a NUL's neighbours) and bytes that are no UTF-8 shown as \xNN, and
 * past `max` bytes cut with the length: 'AAAA...' (131072 bytes). */
char *term_safe(const char *s, size_t len, size_t max);
/* A tool's output (scontrol's four lines) as one line of a message: its
 * line ends as "; ", none at its end, a carriage return as a space. The
 * caller frees; what it holds of escape sequences is still term_safe's. */
char *lines_as_one(const char *text);
/* Whether every byte is printable (no control characters such as newline or NUL). */
bool is_printable(const char *s);

/* The length of the well-formed UTF-8 sequence at p (RFC 3629), or 0;
 * and whether a whole string is well-formed UTF-8. */
size_t utf8_seq_len(const unsigned char *p);
bool utf8_valid(const char *s);

/* qsort's and bsearch's comparison of two char * (strcmp of what they point at). */
int str_ptr_cmp(const void *a, const void *b);

#endif
