/* libFuzzer target: rdmarun judge's readers (judge/parse*.c: nccl-tests'
 * table and -J JSON, OSU, IMB, perftest, ucx_perftest, the sweep) and the
 * model's judgement of what they read, printed as text and JSON. Every
 * series keeps at most RESULTS_MAX_ROWS rows, and a file gives at most
 * RESULTS_MAX_SERIES series. */
#include "judge/judge.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct result_file rf = {0};
    size_t n = results_parse(&rf, text, "fuzz-all_reduce_perf.log");
    if (n > RESULTS_MAX_SERIES || rf.n > RESULTS_MAX_SERIES)
        abort();
    struct node_model base;
    node_model_init(&base);
    struct judged *j = calloc(rf.n + 1, sizeof(*j));
    for (size_t i = 0; i < rf.n; i++) {
        if (rf.series[i].nrows > RESULTS_MAX_ROWS)
            abort();
        judge_series(&j[i], "fuzz", &rf.series[i], &base,
                     i % 2 ? "nics=8x400G kind=ib pcie=5x16 gpus=8xH100 nodes=2" : NULL);
        judge_print_text(&j[i], null);
    }
    judge_print_json(j, rf.n, null);
    for (size_t i = 0; i < rf.n; i++)
        judged_free(&j[i]);
    free(j);
    node_model_free(&base);
    results_free(&rf);
    free(text);
    return 0;
}
