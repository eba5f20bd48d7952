/* libFuzzer target: every log parser (UCX, NCCL), line by line, and the
 * verdict and its summary; the same bytes as 'rdma -j res show qp' output;
 * and through the live filter (evidence/stream.c), cut into reads at the
 * input's own first byte. */
#include "facts/internal.h"
#include "facts/lossless.h"
#include "evidence/evidence.h"
#include "evidence/stream.h"
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    static const long pids[] = {1, 1234};
    struct qp_census census;
    rdma_res_parse(text, pids, 2, &census);
    sv_free(&census.broken);
    /* dcb -j's answers and a PCI config space, which the facts read */
    lossless_parse_pfc(text);
    char *map = lossless_parse_dscp_prio(text);
    for (int dscp = 0; dscp < 64; dscp += 13)
        lossless_dscp_priority(map, dscp);
    free(map);
    unsigned char cfg[4096] = {0};   /* as the bytes of a whole config space */
    memcpy(cfg, data, size < sizeof(cfg) ? size : sizeof(cfg));
    pci_acs_redirects(cfg, sizeof(cfg));
    for (size_t k = 0x100; k + 4 <= sizeof(cfg) && size >= 4; k += 0x48)
        memcpy(cfg + k, data, 4);   /* chains of extended capability headers */
    pci_acs_redirects(cfg, sizeof(cfg));
    struct evidence ev = {0};
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        evidence_parse_line(&ev, line, "fuzz:1", NULL, -1);
    }
    enum verdict v = evidence_verdict(&ev);
    free(verdict_summary(&ev, v));
    FILE *null = fopen("/dev/null", "w");   /* verdict.json: every class, reason code */
    if (null) {
        evidence_print_json(&ev, v, null);
        fclose(null);
    }
    evidence_free(&ev);
    free(text);

    static struct evidence_stream st;
    struct evidence_logs logs = {0};
    int sink = open("/dev/null", O_WRONLY | O_CLOEXEC);
    /* An odd first byte: Hydra's labelled output (evidence/demux.c), with -l
     * when it is also 3 mod 4; then a prompt's flush midway. */
    bool labelled = size && data[0] % 2;
    st = (struct evidence_stream){.ev = &ev, .logs = &logs, .out = sink, .take_ucx = true,
                                  .take_nccl = true, .label = labelled ? "[rdmarun:0 " : NULL,
                                  .rank_prefix = size && data[0] % 4 == 3};
    size_t step = size ? 1 + data[0] % 97 : 1;
    for (size_t at = 0; at < size; at += step) {
        stream_feed(&st, (const char *)data + at, size - at < step ? size - at : step);
        if (at / step == 7)
            stream_flush(&st);
    }
    stream_end(&st);
    evidence_logs_close(&logs);
    evidence_free(&ev);
    if (sink >= 0)
        close(sink);
    return 0;
}
