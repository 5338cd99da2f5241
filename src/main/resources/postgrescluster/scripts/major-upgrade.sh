#!/bin/sh
# The major upgrade, run by the upgrade Job in the primary's Spilo container (kubectl exec): Spilo's in-place
# upgrade with PGVERSION set to the new version (inplace_upgrade.py at zalando/spilo 7cb50bd takes the version
# it upgrades to from PGVERSION, lines 111-124, and the member count as its one argument, lines 769-772), then
# the data directory's PG_VERSION tells what the cluster runs, whatever the script's exit status said: Spilo
# exits 1 both after a rollback and after a failure past the switch of the data directory (lines 557-585). Arguments: old version, new version, member count,
# data directory, Spilo's scripts directory, the directory of PostgreSQL's versions.
# Exit codes: 0 at the new version; 10 still at the old one (refused or rolled back); 11 at the new one but
# Spilo reported an error after the switch; 12 no binaries of the new version; 13 neither version.
set -u
from=$1
to=$2
members=$3
pgdata=$4
scripts=$5
versions=$6
running() {
  cat "$pgdata/PG_VERSION" 2>/dev/null || echo unknown
}
before=$(running)
if [ "$before" = "$to" ]; then
  echo "major upgrade: the data directory is PostgreSQL $to already"
  exit 0
fi
if [ "$before" != "$from" ]; then
  echo "major upgrade: the data directory is PostgreSQL $before, not $from: nothing done" >&2
  exit 13
fi
if [ ! -x "$versions/$to/bin/postgres" ] || [ ! -x "$versions/$to/bin/pg_upgrade" ]; then
  echo "major upgrade: this image has no PostgreSQL $to in $versions: nothing done" >&2
  exit 12
fi
echo "major upgrade: PostgreSQL $from to $to with $members members"
status=0
PGVERSION=$to python3 "$scripts/inplace_upgrade.py" "$members" || status=$?
after=$(running)
if [ "$after" = "$to" ] && [ "$status" -eq 0 ]; then
  echo "major upgrade: done, the data directory is PostgreSQL $to"
  exit 0
fi
if [ "$after" = "$to" ]; then
  echo "major upgrade: the primary's data directory is PostgreSQL $to, but inplace_upgrade.py exited $status" >&2
  exit 11
fi
echo "major upgrade: inplace_upgrade.py exited $status; the data directory is still PostgreSQL $after" >&2
exit 10
