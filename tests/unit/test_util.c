/* Unit tests of the shared helpers: sizes, suggestions, quoting, versions,
 * JSON, string vectors. */
#include "plan/rules.h"
#include "tap.h"
#include "util/json.h"
#include "util/size.h"
#include "util/strvec.h"
#include "util/text.h"
#include <stdint.h>
#include <stdlib.h>

static void test_sizes(void)
{
    static const struct { const char *in; uint64_t want; } good[] = {
        {"8388608", 8388608}, {"8M", 8388608}, {"8m", 8388608}, {"8MiB", 8388608},
        {"8mb", 8388608}, {"8MB", 8388608}, {"8k", 8192}, {"8KiB", 8192}, {"1g", 1073741824},
        {"1GiB", 1073741824}, {"2t", 2199023255552ULL}, {"0", 0}, {"17b", 17},
        {"16383P", 0} /* placeholder, not used */,
    };
    for (size_t i = 0; i + 1 < sizeof(good) / sizeof(*good); i++) {
        uint64_t v = 1;
        ok(parse_size(good[i].in, &v) && v == good[i].want, "size %s = %llu", good[i].in,
           (unsigned long long)good[i].want);
    }
    static const char *const bad[] = {
        "", "M", "eight", "8 M", "8MM", "-1", "1.5M", "8Mi", "8iB", "99999999999999999999",
        "17179869184G" /* 2^64 bytes */, "8x",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        uint64_t v = 12345;
        ok(!parse_size(bad[i], &v) && v == 12345, "not a size: '%s'", bad[i]);
    }
    uint64_t v;
    ok(parse_size("16777215T", &v) && v == 16777215ULL << 40, "largest T that fits");
    ok(!parse_size("16777216T", &v), "2^64 bytes overflows");
}

static void test_suggest(void)
{
    const char *const sections[] = {"profile", "ucx", "nccl", "mpi", "bind", "env", "check"};
    is_str(suggest("ucxx", sections, 7), "ucx", "ucxx -> ucx");
    is_str(suggest("Profil", sections, 7), "profile", "case-insensitive");
    is_str(suggest("completely-different", sections, 7), NULL, "no wild guesses");
    ok(edit_distance("kitten", "sitting") == 3, "edit distance kitten/sitting = 3");
}

static void test_quote(void)
{
    struct { const char *in, *want; } cases[] = {
        {"plain", "plain"}, {"UCX_TLS=rc,sm", "UCX_TLS=rc,sm"}, {"two words", "'two words'"},
        {"it's", "'it'\\''s'"}, {"", "''"}, {"^openib", "'^openib'"}, {"$HOME", "'$HOME'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char *q = shell_quote(cases[i].in);
        is_str(q, cases[i].want, "shell_quote(%s)", cases[i].in);
        free(q);
    }
}

static void test_versions(void)
{
    ok(version_cmp("1.13.1", "1.19") < 0, "1.13.1 < 1.19");
    ok(version_cmp("1.19", "1.19.0") == 0, "1.19 == 1.19.0");
    ok(version_cmp("1.19.1", "1.19") > 0, "1.19.1 > 1.19");
    ok(version_cmp("1.9", "1.13") < 0, "1.9 < 1.13 (numeric, not text)");
    ok(version_cmp("2.0", "1.99.9") > 0, "2.0 > 1.99.9");
}

static void test_json(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct json j;
    json_init(&j, f);
    json_begin_object(&j, NULL);
    json_string(&j, "s", "a\"b\\c\nd\x01");
    json_int(&j, "i", -5);
    json_bool(&j, "b", true);
    json_null(&j, "n");
    json_begin_array(&j, "empty");
    json_end_array(&j);
    json_begin_array(&j, "a");
    json_string(&j, NULL, "x");
    json_string(&j, NULL, NULL);
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
    fclose(f);
    is_str(buf, "{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"i\": -5,\n  \"b\": true,\n"
                "  \"n\": null,\n  \"empty\": [],\n  \"a\": [\n    \"x\",\n    null\n  ]\n}\n",
           "JSON writer escapes, nests and indents");
    free(buf);
}

static void test_strvec(void)
{
    struct strvec v = {0};
    sv_split(&v, " mlx5_0:1, ,mlx5_1:1 ,", ",");
    ok(v.n == 2, "split drops empty items");
    is_str(v.v[0], "mlx5_0:1", "split trims");
    ok(v.v[v.n] == NULL, "vector stays NULL-terminated");
    char *j = sv_join(&v, ",");
    is_str(j, "mlx5_0:1,mlx5_1:1", "join");
    free(j);
    ok(sv_find(&v, "mlx5_1:1") == 1 && sv_find(&v, "x") == -1, "find");
    sv_free(&v);
}

static void test_bool(void)
{
    bool b;
    ok(parse_bool("Yes", &b) && b, "Yes is true");
    ok(parse_bool("off", &b) && !b, "off is false");
    ok(!parse_bool("maybe", &b), "maybe is not a boolean");
}

int main(void)
{
    test_sizes();
    test_suggest();
    test_quote();
    test_versions();
    test_json();
    test_strvec();
    test_bool();
    return done_testing();
}
