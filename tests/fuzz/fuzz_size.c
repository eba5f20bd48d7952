/* libFuzzer target: the size parser. */
#include "util/size.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    uint64_t v;
    parse_size(s, &v);
    free(s);
    return 0;
}
