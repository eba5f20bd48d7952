/* The node against a manifest: the facts of a known-good node of its kind
 * (rdmarun probe --json there), or a subset a site wrote, and every
 * difference that matters, each with its fault code (RDMARUN-MANIFEST-*),
 * as Meta's GCM compares nodes with one. A field the manifest leaves out
 * or does not know is not compared. */
#ifndef RDMARUN_MANIFEST_H
#define RDMARUN_MANIFEST_H
#include "facts/facts.h"
#include "util/strvec.h"

/* Each difference: its code in `codes`, its words at the same index in
 * `problems`. */
void manifest_compare(const struct facts *want, const struct facts *have, struct strvec *codes,
                      struct strvec *problems);

#endif
