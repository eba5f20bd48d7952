/* nccl-tests' -J JSON file (src/util.cu from v2.17.3: writeResultHeader,
 * writeBenchmarkLineBody, with json-c here): "config" holds "devices"
 * ({"hostname", "device_info"} a rank), "args" the command line (the
 * test's binary first), "results" a row per size: "size" and
 * "out_of_place" / "in_place" with "bus_bw" in GB/s. */
#include "judge/results.h"
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static bool number(json_object *o, double *out)
{
    if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
        return false;
    *out = json_object_get_double(o);
    return *out >= 0 && *out < 1e18;
}

static void devices(struct result_series *s, json_object *config)
{
    json_object *devs = get(config, "devices");
    struct strvec hosts = {0};
    size_t n = devs && json_object_is_type(devs, json_type_array)
                   ? json_object_array_length(devs) : 0;
    for (size_t i = 0; i < n && i < 65536; i++) {
        json_object *d = json_object_array_get_idx(devs, i);
        const char *host = json_object_get_string(get(d, "hostname"));
        const char *info = json_object_get_string(get(d, "device_info"));
        if (host && sv_find(&hosts, host) < 0)
            sv_push(&hosts, host);
        if (info && !s->gpu[0])
            snprintf(s->gpu, sizeof(s->gpu), "%s", info);
    }
    s->ranks = s->bench.ranks = (int)n;
    s->nodes = (int)hosts.n;
    sv_free(&hosts);
}

/* The test's name: the binary in "args" ("./build/all_reduce_perf"). */
static void test_name(struct result_series *s, json_object *root)
{
    json_object *args = get(root, "args");
    const char *argv0 = args && json_object_is_type(args, json_type_array)
                            ? json_object_get_string(json_object_array_get_idx(args, 0)) : NULL;
    s->bench.coll = nccl_coll_in(argv0);
    if (s->bench.coll)
        snprintf(s->test, sizeof(s->test), "%s_perf", s->bench.coll);
    else
        snprintf(s->test, sizeof(s->test), "nccl-tests");
}

size_t parse_nccl_json(struct result_file *rf, const char *text)
{
    json_object *root = json_tokener_parse(text);
    json_object *results = get(root, "results");
    struct result_series *s = NULL;
    if (results && json_object_is_type(results, json_type_array) &&
        (s = results_add(rf, "nccl-tests", "", OP_BUSBW)) != NULL) {
        for (size_t i = 0; i < json_object_array_length(results); i++) {
            json_object *r = json_object_array_get_idx(results, i);
            double bytes, oop = 0, ip = 0;
            bool a = number(get(get(r, "out_of_place"), "bus_bw"), &oop);
            bool b = number(get(get(r, "in_place"), "bus_bw"), &ip);
            if (number(get(r, "size"), &bytes) && bytes > 0 && (a || b))
                series_row(s, bytes, oop > ip ? oop : ip);
        }
        devices(s, get(root, "config"));
        test_name(s, root);
        s->bench.gpu_memory = true;
        s->bench.scope = s->nodes > 1 ? SCOPE_NET : SCOPE_NODE;
    }
    json_object_put(root);
    if (s && !s->nrows) {
        results_free(rf);
        return 0;
    }
    return s ? 1 : 0;
}
