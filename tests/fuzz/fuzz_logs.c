/* libFuzzer target: every log parser (UCX, NCCL), line by line, and the
 * verdict and its summary. */
#include "evidence/evidence.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct evidence ev = {0};
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        evidence_parse_line(&ev, line, "fuzz:1", NULL, -1);
    }
    enum verdict v = evidence_verdict(&ev);
    free(verdict_summary(&ev, v));
    evidence_free(&ev);
    free(text);
    return 0;
}
