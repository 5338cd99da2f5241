#!/usr/bin/env bash
# Installs Patroni 4 (the major version Spilo's image runs) from PyPI into a virtualenv of its own, beside Debian's
# Patroni 3.0.2 (/usr/bin/patroni): the Patroni tests run on both. The virtualenv lives outside the repository, in
# ~/.cache/metahooks-patroni/<version> (METAHOOKS_PATRONI_CACHE), and is made only when it is missing or was left
# half-made: a second run takes no time. Extras: etcd3 (the tests' DCS is etcd's v3 API) and psycopg2-binary (the
# PostgreSQL driver, without a compiler).
# Usage: scripts/patroni4.sh   (needs python3 with its venv module: Debian's python3-venv)
set -euo pipefail
version="${PATRONI4_VERSION:-4.1.5}"
target="${METAHOOKS_PATRONI_CACHE:-$HOME/.cache/metahooks-patroni}/$version"
# A virtualenv names its own path in its scripts, so it is made where it stays; this mark, written last, says it
# is complete.
complete="$target/.complete"
[ -e "$complete" ] && [ -x "$target/bin/patroni" ] && exit 0
# Debian's interpreter rather than one a version manager puts first on the path: the virtualenv must outlive it.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
echo "installing Patroni $version from PyPI into $target" >&2
started=$SECONDS
rm -rf "$target"
"$python" -m venv "$target"
"$target/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir \
  "patroni[etcd3,psycopg2-binary]==$version"
"$target/bin/patroni" --version >&2
touch "$complete"
echo "installed Patroni $version in $((SECONDS - started)) s ($(du -sh "$target" | cut -f1))" >&2
