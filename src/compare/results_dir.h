/* The folder a tune or a comparison writes its results in (-o DIR): one
 * rdmarun makes now, or, for --resume, one it made earlier, told by the
 * marker it wrote there. It is this user's and no one else may write it,
 * and its parent keeps others from swapping it (safe_parent_dir), so the
 * paths the runs are given inside it lead where they say. rdmarun's own
 * files are written through its fd, never through a link. Its marker is
 * locked (flock) for the run's life: a second run of it is refused, with
 * the first one's pid. */
#ifndef RDMARUN_COMPARE_RESULTS_DIR_H
#define RDMARUN_COMPARE_RESULTS_DIR_H
#include <stddef.h>

#define RESULTS_DIR_MARK ".rdmarun-results"

/* A zeroed one is closed: results_dir_create and _resume set it up. */
struct results_dir {
    char *path;   /* as given (-o DIR, --resume DIR), or PARENT/DATE-TIME */
    int fd;       /* the folder, opened O_DIRECTORY|O_NOFOLLOW */
    int lock;     /* its marker, flock'd while this process runs */
};
#define RESULTS_DIR_INIT {.path = NULL, .fd = -1, .lock = -1}

/* A new results folder for `kind` ("tune", "compare"): `output`, made now
 * (refused, 64, when it exists: rdmarun writes only into a folder it made),
 * else PARENT/DATE-TIME in the working folder. An RR_EX_ status after
 * saying why (73: it cannot be made, or not safely). */
int results_dir_create(struct results_dir *rd, const char *output, const char *parent,
                       const char *kind);
/* An earlier results folder of `kind`, for `who` ("tune --resume"): 66 when
 * it is not one (no marker of `kind`), 73 when it is not safe (a link,
 * another user's, writable by others) or in use by another rdmarun. */
int results_dir_resume(struct results_dir *rd, const char *path, const char *kind,
                       const char *who);
/* The folder NAME inside (runs, plans): made if missing, else kept when it
 * is a folder of this user's and not a link. 0, or -1 with errno. */
int results_dir_subdir(const struct results_dir *rd, const char *name);
/* rd->path/NAME, for messages and the runs' paths. Caller frees. */
char *results_dir_file(const struct results_dir *rd, const char *name);
void results_dir_close(struct results_dir *rd);

#endif
