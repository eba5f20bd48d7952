/* Reading logs into evidence: files and directories, line by line, each
 * line past its launcher's prefixes and offered to the log families. */
#include "evidence/internal.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>


/* "2025-05-16": each test reads no further than the string goes. */
static bool date_at(const char *s)
{
    return strspn(s, "0123456789") == 4 && s[4] == '-' && strspn(s + 5, "0123456789") == 2 &&
           s[7] == '-';
}

/* A date and time as log exporters and launchers put them in front:
 * "2025-05-16T16:39:55.218-07:00", "2025-05-16 16:39:55,123". */
static const char *after_timestamp(const char *s)
{
    if (!date_at(s))
        return s;
    const char *t = s + strcspn(s, " T");
    if (*t == 'T' || (*t == ' ' && strspn(t + 1, "0123456789") == 2 && t[3] == ':'))
        t += 1 + strcspn(t + 1, " ");
    return t + strspn(t, " ");
}

const char *line_body(const char *line)
{
    const char *s = line, *was;
    do {
        was = s;
        s += strspn(s, " \t");
        if (*s == '|')                       /* an exported log's columns */
            s += 1 + strspn(s + 1, " ");
        s = after_timestamp(s);
        if (*s == '[' && date_at(s + 1)) {
            const char *e = strchr(s, ']');     /* NCCL 2.26+: "[2025-10-16 22:16:08] " */
            if (e && after_timestamp(s + 1) != s + 1)
                s = e + 1 + strspn(e + 1, " ");
        }
        if (*s == '|')
            s += 1 + strspn(s + 1, " ");
        if (*s == '[') {
            const char *t = s + 1 + strspn(s + 1, "0123456789,");
            /* torchrun --tee: "[default0]:", "[trainer1]:", a template's "[3]:" */
            const char *w = s + 1 + strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                  "0123456789_-.|");
            if (w > s + 1 && *w == ']' && w[1] == ':')
                s = w[2] == ' ' ? w + 3 : w + 2;
            else if (t > s + 1 && *t == ']' && t[1] == '<') {   /* Open MPI's --tag-output */
                const char *e = strstr(t, ">:");
                if (e)
                    s = e[2] == ' ' ? e + 3 : e + 2;
            } else if (t > s + 1 && *t == ']' && t[1] == ' ' && !memchr(s, ',', (size_t)(t - s))) {
                s = t + 2;                    /* a rank's number: "[155] " */
            }
        } else {
            size_t d = strspn(s, "0123456789");
            if (d > 0 && s[d] == ':' && s[d + 1] == ' ')   /* srun --label */
                s += d + 2;
        }
    } while (s != was);
    return s;
}

void line_origin(const char *line, const char *host, long pid, struct line_origin *o)
{
    o->host = host ? xstrdup(host) : NULL;
    o->pid = pid;
    const char *s = line;
    if (*s == '[') {
        const char *b = strstr(s, "] [");
        const char *close = strchr(s, ']');
        size_t hl;
        if (b && isdigit((unsigned char)s[1])) {
            /* UCX: "[1795949793.45] [vm:3251 :0] ..." */
            s = b + 3;
            hl = strcspn(s, ":]");
            if (s[hl] == ':') {
                free(o->host);
                o->host = xstrndup(s, hl);
                o->pid = strtol(s + hl + 1, NULL, 10);
            }
        } else if (close && (hl = strcspn(s + 1, ":]#")) && s[1 + hl] == ':' &&
                   isdigit((unsigned char)s[2 + hl])) {
            /* Open MPI: "[node01:04321] select: ..." */
            free(o->host);
            o->host = xstrndup(s + 1, hl);
            o->pid = strtol(s + 2 + hl, NULL, 10);
        } else if (close && s[1 + hl] == '#' && strchr(s, '@') && strchr(s, '@') < close) {
            /* Intel MPI with I_MPI_DEBUG=+N: "[0#3520@clusternode1] MPI startup(): ..." */
            const char *at = strchr(s, '@');
            free(o->host);
            o->host = xstrndup(at + 1, (size_t)(close - at - 1));
            o->pid = strtol(s + 2 + hl, NULL, 10);
        }
        return;
    }
    /* NCCL: "gpu01:12345:12345 [0] NCCL INFO ..." */
    size_t hl = strcspn(s, ": ");
    if (s[hl] == ':' && isdigit((unsigned char)s[hl + 1]) && strstr(s, " NCCL ")) {
        free(o->host);
        o->host = hl ? xstrndup(s, hl) : NULL;   /* ":22901:22901 [0] NCCL": no name */
        o->pid = strtol(s + hl + 1, NULL, 10);
    }
}

bool evidence_parse_line(struct evidence *ev, const char *line, const char *where,
                         const char *host, long pid)
{
    ev->lines++;
    const char *body = line_body(line);
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].wanted(body) && log_families[i].parse(ev, body, where, host, pid))
            return true;
    return false;
}

static bool wanted(const char *line)
{
    for (size_t i = 0; i < nlog_families; i++)
        if (log_families[i].wanted(line))
            return true;
    return false;
}

/* FAMILY.HOST.PID.log (ucx.vm.3251.log), as rdmarun names them. */
static void origin_from_name(const char *path, char **host, long *pid)
{
    *host = NULL;
    *pid = -1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t flen = strcspn(base, ".");
    bool ours = false;
    for (size_t i = 0; i < nlog_families && !ours; i++)
        ours = strlen(log_families[i].name) == flen && strncmp(base, log_families[i].name, flen) == 0;
    if (!ours || !base[flen])
        return;
    /* HOST may hold dots (c01.cluster.local): the pid is the last part. */
    const char *h = base + flen + 1;
    size_t len = strlen(h);
    if (len > 4 && strcmp(h + len - 4, ".log") == 0)
        len -= 4;
    size_t dot = len;
    while (dot > 0 && h[dot - 1] != '.')
        dot--;
    if (dot < 2 || dot == len || strspn(h + dot, "0123456789") != len - dot)
        return;
    *host = xstrndup(h, dot - 1);
    *pid = strtol(h + dot, NULL, 10);
}

/* stream: the path the user named (a pipe, "-" for stdin); a log
 * directory's entries are regular files only. */
static int read_file(struct evidence *ev, const char *path, bool stream)
{
    FILE *f = stream ? open_stream(path) : open_input(path);
    if (!f) {
        rr_error("cannot read %s: %s", path, input_strerror(errno));
        return RR_EX_NOINPUT;
    }
    char *host;
    long pid;
    origin_from_name(path, &host, &pid);
    /* A fixed buffer, so that memory stays bounded whatever the file: a line
     * longer than it (binary junk, an endless line) is judged by its start
     * and the rest is skipped. */
    char line[8192];
    unsigned long long n = 0;
    bool rest = false;
    for (;;) {
        /* fgets ends what it read with a NUL, which tells a full buffer (a
         * line cut short) even when the line itself holds NUL bytes. */
        line[sizeof(line) - 1] = 1;
        if (!fgets(line, sizeof(line), f))
            break;
        bool full = line[sizeof(line) - 1] == '\0' && line[sizeof(line) - 2] != '\n';
        bool whole = !full || feof(f), skip = rest;
        rest = !whole;
        if (skip)
            continue;
        n++;
        char *where = NULL;
        if (wanted(line)) {
            where = xasprintf("%s:%llu", path, n);
            evidence_parse_line(ev, line, where, host, pid);
            free(where);
        } else {
            ev->lines++;
        }
    }
    free(host);
    if (f != stdin)
        fclose(f);
    ev->files++;
    return 0;
}

bool evidence_own_file(const char *name)
{
    return strcmp(name, "verdict.json") == 0 || strcmp(name, "placement.txt") == 0;
}

/* A directory's entries to read: not hidden, not rdmarun's own files. */
static int log_entry(const struct dirent *d)
{
    return d->d_name[0] != '.' && !evidence_own_file(d->d_name);
}

bool evidence_log_name(const char *name)
{
    return strcmp(name, "ucx.log") == 0 || strcmp(name, "nccl.log") == 0 ||
           strcmp(name, "mpi.log") == 0 ||
           ((starts_with(name, "ucx.") || starts_with(name, "nccl.")) && ends_with(name, ".log"));
}

bool evidence_is_run_dir(const char *path)
{
    char *mark = xasprintf("%s/%s", path, EVIDENCE_DIR_MARK);
    struct stat st;
    bool is = lstat(mark, &st) == 0 && S_ISREG(st.st_mode);
    free(mark);
    return is;
}

/* In a folder of the user's, what is no log by its name: a README, the
 * EXPECTED of a test folder, JSON, documents, scripts, archives, images. */
static bool not_a_log_name(const char *name)
{
    static const char *const stems[] = {"README", "EXPECTED", "LICENSE", "COPYING", NULL};
    static const char *const exts[] = {".json", ".md", ".ini", ".conf", ".xml", ".csv", ".sh",
                                       ".py", ".c", ".h", ".html", ".pdf", ".png", ".jpg",
                                       ".svg", ".gz", ".xz", ".bz2", ".zst", ".zip", ".tar",
                                       NULL};
    for (size_t i = 0; stems[i]; i++)
        if (strncasecmp(name, stems[i], strlen(stems[i])) == 0)
            return true;
    for (size_t i = 0; exts[i]; i++)
        if (ends_with(name, exts[i]))
            return true;
    return false;
}

#define MAX_LOG_DEPTH 8   /* folders in folders: a job's, its nodes', their ranks' */

/* A log directory's entries: regular files are read, folders entered (to
 * a depth); a symlink, FIFO, device or socket in it is skipped with a note,
 * so that a planted FIFO cannot hang a verify and a link loop cannot
 * recurse. A run directory (the mark) is read for its logs only; in any
 * other folder a file whose name says it is no log is left, and named. */
static int read_dir(struct evidence *ev, const char *path, int depth)
{
    struct dirent **names;
    int n = scandir(path, &names, log_entry, alphasort);
    if (n < 0) {
        rr_error("cannot list %s: %s", path, strerror(errno));
        return RR_EX_NOINPUT;
    }
    bool run = evidence_is_run_dir(path);
    struct strvec left = {0};
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *child = xasprintf("%s/%s", path, names[i]->d_name);
        struct stat st;
        int r = 0;
        if (lstat(child, &st) != 0)
            r = 0;   /* gone since the listing */
        else if (S_ISDIR(st.st_mode) && depth < MAX_LOG_DEPTH)
            r = read_dir(ev, child, depth + 1);
        else if (S_ISREG(st.st_mode) && run && !evidence_log_name(names[i]->d_name))
            ;   /* a run directory's other files are rdmarun's, or no log */
        else if (S_ISREG(st.st_mode) && !run && not_a_log_name(names[i]->d_name))
            sv_push(&left, names[i]->d_name);
        else if (S_ISREG(st.st_mode))
            r = read_file(ev, child, false);
        else
            rr_note("%s skipped: %s", child,
                    S_ISLNK(st.st_mode) ? "a symlink (links in a log directory are not followed)"
                    : S_ISDIR(st.st_mode) ? "folders nested deeper than 8 are not read"
                                          : "not a regular file (a FIFO, a device or a socket)");
        rc = rc ? rc : r;
        free(child);
        free(names[i]);
    }
    free(names);
    if (left.n) {
        char *list = sv_join(&left, ", ");
        rr_note("%s: not read as logs: %s (no log by its name; name a file to read it)", path,
                list);
        free(list);
    }
    sv_free(&left);
    return rc;
}

int evidence_read(struct evidence *ev, const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return read_file(ev, path, true);
    if (stat(path, &st) != 0) {
        rr_error("cannot read %s: %s", path, strerror(errno));
        return RR_EX_NOINPUT;
    }
    return S_ISDIR(st.st_mode) ? read_dir(ev, path, 0) : read_file(ev, path, true);
}

/* A process in words, for the parsers and the verdict alike. */
char *evidence_process_words(const char *host, long pid)
{
    /* A line without UCX's or NCCL's host:pid prefix (pasted, or from a
     * launcher that cut it) names neither: said so, never "process -1 on ?". */
    if (!host)
        return pid < 0 ? xstrdup("a process (no host in the log)")
                       : xasprintf("process %ld (no host in the log)", pid);
    if (pid < 0)
        return xasprintf("a process on %s", host);
    return xasprintf("process %ld on %s", pid, host);
}

/* A family's parser state, made at its first use (its row's state_new);
 * here, not in families.c, so that a parser's call to it makes no cycle
 * with the table that names the parser. */
void *evidence_family_state(struct evidence *ev, enum log_family_id id)
{
    if (!ev->family_state[id])
        ev->family_state[id] = log_families[id].state_new();
    return ev->family_state[id];
}

void evidence_family_state_free(struct evidence *ev)
{
    for (size_t i = 0; i < nlog_families; i++) {
        if (ev->family_state[i] && log_families[i].state_free)
            log_families[i].state_free(ev->family_state[i]);
        free(ev->family_state[i]);
        ev->family_state[i] = NULL;
    }
}

void evidence_free(struct evidence *ev)
{
    evidence_tally_free(ev);
    free(ev->failure);
    free(ev->fault);
    free(ev->fault_where);
    free(ev->synd);
    free(ev->synd_where);
    free(ev->nccl_nvlink_line);
    free(ev->error);
    free(ev->error_where);
    free(ev->abort);
    free(ev->abort_where);
    free(ev->failure_where);
    free(ev->nccl_gdr_off);
    free(ev->nccl_no_device_proc);
    evidence_family_state_free(ev);
    sv_free(&ev->versions);
    memset(ev, 0, sizeof(*ev));
}

