#include "cmd/appfile.h"
#include "cmd/options.h"
#include "util/fs.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_APPFILE (1024 * 1024)   /* bytes: an appfile is a few lines */

int appfile_parse(const char *text, const char *name, struct job_args *job)
{
    char *copy = xstrdup(text);
    int rc = 0;
    unsigned lineno = 0;
    for (char *line = copy, *next; line && rc == 0; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "#")] = '\0';
        struct strvec words = {0};
        for (char *save = NULL, *w = strtok_r(line, " \t\r\f\v", &save); w;
             w = strtok_r(NULL, " \t\r\f\v", &save))
            sv_push(&words, w);
        if (words.n) {
            GROW(job->contexts, job->ncontexts_cap, job->ncontexts + 1);
            struct app_context *c = &job->contexts[job->ncontexts];
            int used = cli_parse_context(job, words.v, (int)words.n, c);
            if (used < 0 || (size_t)used != words.n) {
                if (used >= 0)
                    rr_error("':' cannot separate app contexts in an appfile");
                rr_error("%s:%u: this line is not an app context mpirun can run (hint: "
                         "-np N PROGRAM ARGS, one per line)", name, lineno);
                sv_free(&c->args);
                sv_free(&c->program);
                rc = RR_EX_DATAERR;
            } else {
                job->ncontexts++;
            }
        }
        sv_free(&words);
    }
    free(copy);
    if (rc == 0 && job->ncontexts == 0) {
        rr_error("%s: no app context in it (hint: -np N PROGRAM ARGS, one per line)", name);
        rc = RR_EX_DATAERR;
    }
    return rc;
}

int appfile_read(struct job_args *job)
{
    FILE *f = open_input(job->appfile);
    if (!f) {
        rr_error("cannot read the appfile %s: %s", job->appfile, input_strerror(errno));
        return RR_EX_NOINPUT;
    }
    char *text = xmalloc(MAX_APPFILE + 1);
    size_t n = fread(text, 1, MAX_APPFILE + 1, f);
    fclose(f);
    int rc;
    if (n > MAX_APPFILE) {
        rr_error("%s: larger than %d bytes: not an appfile", job->appfile, MAX_APPFILE);
        rc = RR_EX_DATAERR;
    } else {
        text[n] = '\0';
        if (strlen(text) != n) {
            rr_error("%s: holds a NUL byte: not an appfile", job->appfile);
            rc = RR_EX_DATAERR;
        } else {
            rc = appfile_parse(text, job->appfile, job);
        }
    }
    free(text);
    return rc;
}
