#!/bin/bash
# Hostile cases (issue 47): root's site file and the state it names. As
# root, rdmarun check reads its configuration only through folders root
# alone can change and no symbolic link anywhere on the way, opened once
# (nothing checked can be swapped before it is read); the state folders the
# file names are opened through no link either. A real second user plays
# the attacker.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
. "$RDMARUN_SRCDIR/tests/hostile/lib.sh"
cd "$TMP" || exit 1
why=$(hostile_blocked)
if [ -n "$why" ]; then
    echo "1..0 # SKIP $why"
    exit 0
fi
mkdir -m 755 site && chmod 755 site
printf '[check]\ndevices = rxe0\ntimeout = %s\n' "$(scaled 20)" >site/check.ini
run "$RDMARUN" check --config "$TMP/site/check.ini" --sysfs "$DATA/sysfs/rxe"
check "root's own site file in root's folders: read" 0 "is healthy"

ln -s site site-link
run "$RDMARUN" check --config "$TMP/site-link/check.ini" --sysfs "$DATA/sysfs/rxe"
check "a symbolic link on the way to the site file: refused, 78" 78 "$TMP/site-link is a symbolic link"
ln -s check.ini site/linked.ini
run "$RDMARUN" check --config "$TMP/site/linked.ini" --sysfs "$DATA/sysfs/rxe"
check "the site file itself a link: refused, 78" 78 "$TMP/site/linked.ini is a symbolic link"

# A folder of the other user's on the way (they could swap what is below).
mkdir -m 1777 shared && chmod 1777 shared
as_mallory mkdir -m 755 shared/theirs
mkdir -m 755 shared/theirs/site && cp site/check.ini shared/theirs/site/   # root's, below theirs
run "$RDMARUN" check --config "$TMP/shared/theirs/site/check.ini" --sysfs "$DATA/sysfs/rxe"
check "a site file below a folder of the other user's: refused, 78" 78 \
    "$TMP/shared/theirs is not owned by root"

# State named by root's file, through a link the other user planted: the
# check writes nothing where the link points.
as_mallory mkdir -m 777 shared/trap
ln -s "$TMP/shared/trap" state-link
printf '[check]\ndevices = rxe0\nport-state = any\nflaps = yes\nstate = %s/state-link/flaps\ntimeout = %s\n' \
    "$TMP" "$(scaled 20)" >site/flaps.ini
run "$RDMARUN" check --config "$TMP/site/flaps.ini" --sysfs "$DATA/sysfs/rxe"
[ -z "$(ls -A shared/trap)" ]; ok $? "a state folder through a link: nothing written where it points (status $rc)"
printf '[check]\ndevices = rxe0\nport-state = any\nflaps = yes\nstate = %s/state/flaps\ntimeout = %s\n' \
    "$TMP" "$(scaled 20)" >site/flaps2.ini
run "$RDMARUN" check --config "$TMP/site/flaps2.ini" --sysfs "$DATA/sysfs/rxe"
check "a state folder of its own: made and kept" 0 "is healthy"
[ -s state/flaps ]; ok $? "the ports' history is written there"
done_testing
