#!/bin/bash
# For benchmarks/path-test.sh, inside each of two guests: node a runs the
# path test between the two nodes (rdmarun check --path-test, launch
# included) several times and writes its wall times to $RR_SHARE/bench.txt
# (path_bench, nodes.sh); node b serves. Argument: a or b.
. "$RR_SHARE/env.sh"
. "$RDMARUN_SRCDIR/tests/vm/guest/nodes.sh"
if [ "$role" = b ]; then
    serve
    exit 0
fi
reach_b
path_bench
touch "$S/a-done"
done_testing
