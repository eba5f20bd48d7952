/* rdmarun probe: the node's facts, as text or JSON. */
#include "cmd/commands.h"
#include "facts/facts.h"
#include <stdio.h>

int cmd_probe(const struct cmdline *cl)
{
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts, false, true};
    int rc = facts_gather(&f, &src);
    if (!rc) {
        if (cl->json)
            facts_print_json(&f, stdout);
        else
            facts_print_text(&f, stdout);
    }
    facts_free(&f);
    return rc;
}

