/* libFuzzer target: the path test's records (what each node's peer prints,
 * read back from the launcher's output on the launch node) and their
 * judgement. */
#include "preflight/path_report.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct path_report r = {.all_pairs = size % 2 == 1};
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        path_report_line(&r, line);
    }
    struct strvec hosts = {0};
    sv_push(&hosts, "a");
    sv_push(&hosts, "10.0.0.2");
    struct path_finding *f;
    size_t n = path_judge(&r, &hosts, &f);
    path_findings_free(f, n);
    char *s = path_summary(&r);
    free(s);
    for (int i = 0; i < r.n; i++)
        free(path_node_name(&r, i));
    sv_free(&hosts);
    path_report_free(&r);
    free(text);
    return 0;
}
