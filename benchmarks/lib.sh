# Shared by the benchmarks (sourced): each figure beside its target, met or
# missed; a missing figure fails the run. Missing a target does not: a
# benchmark's machine is noisy, and the figure says by how much.
#   figure LABEL VALUE UNIT [OP TARGET]   OP: <, <=, >, >=
# prints "LABEL: VALUE UNIT (target OP TARGET UNIT: met|missed)", or
# "LABEL: ? UNIT (missing)" when VALUE is empty or not a number, and then
# bench_end exits 1.
bench_missing=0
figure() {
    _label=$1 _value=$2 _unit=$3 _op=${4:-} _target=${5:-}
    _u=${_unit:+ $_unit}
    if ! printf '%s' "$_value" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$'; then
        printf '%s: ?%s (missing)\n' "$_label" "$_u"
        bench_missing=$((bench_missing + 1))
        return 0   # counted; bench_end fails the run
    fi
    if [ -z "$_op" ]; then
        printf '%s: %s%s\n' "$_label" "$_value" "$_u"
        return 0
    fi
    _met=$(awk -v v="$_value" -v t="$_target" -v op="$_op" 'BEGIN {
        m = op == "<" ? v < t : op == "<=" ? v <= t : op == ">" ? v > t : op == ">=" ? v >= t : -1
        print m == 1 ? "met" : m == 0 ? "missed" : "?" }')
    printf '%s: %s%s (target %s %s%s: %s)\n' "$_label" "$_value" "$_u" "$_op" "$_target" "$_u" "$_met"
}
# bench_file FILE LAST: the figure lines another process wrote (a guest's);
# its missing figures count here, and so does a file that does not end with
# the line LAST (the writer was cut short).
bench_file() {
    [ -f "$1" ] && cat "$1"
    _n=$(grep -c '(missing)$' "$1" 2>/dev/null)
    bench_missing=$((bench_missing + ${_n:-0}))
    [ "$(tail -n 1 "$1" 2>/dev/null)" = "$2" ] ||
        { echo "$1: ? (missing: it does not end with '$2')"; bench_missing=$((bench_missing + 1)); }
}
# bench_from_check_vm NAME FILE LAST: the figures check-vm's own guest NAME
# measured (make check-vm with RDMARUN_VM_BENCH=1; CI does, to boot each
# guest once), when BENCH_VM_SHARES names check-vm's folder and FILE there
# is complete (ends with LAST) and newer than the rdmarun it measured.
# Prints them and returns 0; otherwise 1, and the benchmark boots its own.
bench_from_check_vm() {
    _f=${BENCH_VM_SHARES:-}/share-$1/$2
    [ -n "${BENCH_VM_SHARES:-}" ] && [ -f "$_f" ] && [ "$_f" -nt "$RDMARUN" ] &&
        [ "$(tail -n 1 "$_f")" = "$3" ] || return 1
    echo "(measured in check-vm's $1 guest: $_f)"
    bench_file "$_f" "$3"
}
# bench_end: the benchmark's exit status (1 when a figure is missing).
bench_end() {
    [ "$bench_missing" = 0 ] || echo "${0##*/}: $bench_missing figure(s) missing" >&2
    exit $((bench_missing > 0))
}
# bench_examples: the example programs the benchmarks run (make examples;
# a plain make does not build them, and a job without its program prints
# no figure).
bench_examples() {
    for _p in mpi_hello mpi_pingpong; do
        [ -x "${RDMARUN_BUILDDIR:-.}/examples/$_p" ] && continue
        make -C "${RDMARUN_BUILDDIR:-.}" examples >&2 || { echo "${0##*/}: make examples failed" >&2; exit 1; }
        return
    done
}
# bench_vm_require: tests/vm/lib.sh's vm_require, where a machine without
# qemu is a missing figure, not a skip.
bench_vm_require() {
    command -v qemu-system-x86_64 >/dev/null ||
        { echo "${0##*/}: ? (missing: qemu-system-x86_64 is not installed)"; exit 1; }
    vm_require
}
