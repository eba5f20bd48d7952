/* libFuzzer target: the appfile reader (--app FILE), each line an app
 * context parsed as mpirun's command line would be. */
#include "cmd/appfile.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct job_args job;
    memset(&job, 0, sizeof(job));
    job.np = job.ppn = -1;
    appfile_parse(text, "fuzz", &job);
    job_contexts_free(&job);
    sv_free(&job.user_env);
    sv_free(&job.user_mca);
    sv_free(&job.user_opts);
    free(job.map_by);
    free(job.appfile);
    free(text);
    return 0;
}
