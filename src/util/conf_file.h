/* Text read through inih a line a call, and the settings files rdmarun
 * writes for itself (a tune's tune.conf, a comparison's compare.conf).
 *
 * ini_text: inih's reader over a text already read (read_input), counting
 * lines, so that a handler knows the line it is given; a line inih's buffer
 * cannot hold whole, or one with a NUL byte, ends the read as an error
 * rather than being cut or misread.
 *
 * conf files: "NAME=VALUE" lines after a "format=2" line, read through inih.
 * conf_put writes a value with %XX for what inih would cut or trim ('%',
 * ';', control bytes, a space at either end), so that any argument or
 * regular expression comes back as it was written. */
#ifndef RDMARUN_UTIL_CONF_FILE_H
#define RDMARUN_UTIL_CONF_FILE_H

#include <stdbool.h>
#include <stdio.h>

/* The longest line rdmarun has inih read whole (ini_configure). */
#define INI_LINE_MAX 4096
/* inih set as rdmarun reads every file with it: no continuation lines (an
 * indented key would silently join the previous value), lines of up to
 * INI_LINE_MAX read whole, off the stack. inih's settings are the
 * process's own globals: called before each parse. */
void ini_configure(void);

struct ini_text {
    const char *next;   /* the text not read yet */
    int line;           /* the line inih was last given */
    int bad_line;       /* a line refused (too long, a NUL byte): its number, else 0 */
    const char *why;    /* and why */
    const char *end;    /* the text's end (its NUL bytes are inside) */
};

/* inih's ini_reader over t (struct ini_text *). */
char *ini_text_line(char *buf, int size, void *t);
void ini_text_init(struct ini_text *t, const char *text, size_t len);

/* A setting of a conf file: NAME, its decoded VALUE, and WHERE it is
 * ("PATH:LINE"). 0 to go on, or an RR_EX_* status (after saying why) that
 * ends the read. */
typedef int (*conf_setting)(void *user, const char *name, const char *value, const char *where);
/* Reads the conf file at path (a regular file, at most 1 MiB). 0, the
 * handler's status, RR_EX_NOINPUT (said, with HINT) or RR_EX_DATAERR
 * (said at its line). A file without the format line is read as rdmarun
 * wrote it before (values as they stand). */
int conf_file_read(const char *path, const char *hint, conf_setting fn, void *user);
/* The file's first lines: a comment naming what reads it, and the format. */
void conf_begin(FILE *f, const char *comment);
void conf_put(FILE *f, const char *name, const char *value);
/* The length of the line conf_put writes (its escapes counted, not its
 * newline): over INI_LINE_MAX, it is not read back. */
size_t conf_put_length(const char *name, const char *value);
void conf_putf(FILE *f, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
