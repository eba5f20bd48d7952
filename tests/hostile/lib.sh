# The hostile suite's other user (issue 47): a real second account, made by
# the test when it runs as root (useradd), acting through runuser. Sourced
# after tests/lib.sh.
MALLORY=rdmarun-mallory
# hostile_blocked: why this host cannot play the other user (not root, no
# useradd or runuser, a build tree the user cannot reach), or nothing.
hostile_blocked() {
    [ "$(id -u)" = 0 ] || { echo "needs root, to make a second user"; return; }
    command -v useradd >/dev/null && command -v runuser >/dev/null ||
        { echo "needs useradd and runuser (passwd, util-linux)"; return; }
    id -u "$MALLORY" >/dev/null 2>&1 ||
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
            "$MALLORY" || { echo "useradd $MALLORY failed"; return; }
    chmod 711 "$TMP"
    as_mallory test -x "$RDMARUN" 2>/dev/null || echo "$MALLORY cannot reach $RDMARUN"
}
# as_mallory CMD...: CMD as the other user.
as_mallory() { runuser -u "$MALLORY" -- "$@"; }
# skip_all WHY TEST...: each TEST skipped for WHY.
skip_all() {
    _why=$1
    shift
    for _t in "$@"; do skip "$_t" "$_why"; done
}
# unchanged PATH SNAPSHOT: PATH's listing (names, kinds, owners, sizes,
# link targets) is still SNAPSHOT (taken by snapshot PATH).
snapshot() { (cd "$1" && find . -printf '%p %y %u %s %l\n' | sort); }
unchanged() { [ "$(snapshot "$1")" = "$2" ]; }
