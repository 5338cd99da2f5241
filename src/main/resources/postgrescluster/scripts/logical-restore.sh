# The logical restore, after logical-common.sh: each database of the chosen backup, checked against the manifest.
stamp=${RESTORE_BACKUP:-$(listing | complete | tail -n 1)}
# The backup's small files in one download (its manifest, and the roles and the settings with their checksums);
# each dump comes when its turn does.
small="$work/small"
if [ -z "$stamp" ] || ! s3 s3 cp --quiet --recursive "$url/$stamp/" "$small/" --exclude '*' --include COMPLETE \
    --include GLOBALS --include globals.sql --include SETTINGS --include settings.sql 2>/dev/null \
    || [ ! -f "$small/COMPLETE" ]; then
  echo "$0: no complete logical backup${RESTORE_BACKUP:+ $RESTORE_BACKUP} under $url/" >&2
  exit 1
fi
# The roles first: the databases' objects name them as owners. A role the target has already (its own, or one of
# spec.users) is kept as it is and only altered as dumped (attributes, memberships, settings: no password);
# any error but "already exists" fails the restore, before a database is touched.
if [ -f "$small/GLOBALS" ]; then
  if [ ! -f "$small/globals.sql" ] || [ "$(sha256sum < "$small/globals.sql" | cut -d' ' -f1)" != "$(cat "$small/GLOBALS")" ]; then
    echo "$0: globals.sql of $stamp does not match its checksum" >&2; exit 1
  fi
  # Messages as SQLSTATEs only (no names in them, so none can look like another): 42710 is "already exists",
  # which in this file only CREATE ROLE can raise.
  psql -X -q -v VERBOSITY=sqlstate -f "$small/globals.sql" > /dev/null 2> "$work/globals.err" || true
  if grep -v -E '^psql:[^ ]+:[0-9]+: (ERROR:  42710|NOTICE:  [0-9A-Z]{5})$' "$work/globals.err" | grep -q .; then
    echo "$0: the roles of $stamp could not be restored (SQLSTATE per line of globals.sql):" \
      "$(grep -v -E 'ERROR:  42710$' "$work/globals.err" | head -n 5 | tr '\n' ' ')" >&2
    exit 1
  fi
  echo "restored the roles of $stamp ($(grep -c 'ERROR:  42710$' "$work/globals.err" || true) existed already and were kept)"
else
  echo "$stamp holds no roles (a backup older than roles in backups); restoring its databases only"
fi
db="" && marker="restored by metahooks.dev PostgresCluster from logical backup $stamp"
while read -r key sum; do
  name_of_key db "$key"
  # The postgres database (in a backup with backup.logical.postgresDatabase) only when asked: the target has its own.
  if [ "$db" = postgres ] && [ "${RESTORE_POSTGRES:-false}" != true ]; then
    echo "postgres.dump of $stamp not restored: bootstrap.logical.postgresDatabase is not set"; continue
  fi
  s3 s3 cp --quiet "$url/$stamp/$key.dump" "$work/restore.dump"
  if [ "$(sha256sum "$work/restore.dump" | cut -d' ' -f1)" != "$sum" ]; then
    echo "$0: $key.dump of $stamp does not match its checksum" >&2; exit 1
  fi
  exists=$(psql -X -At -v ON_ERROR_STOP=1 -v db="$db" <<< "SELECT count(*) FROM pg_catalog.pg_database WHERE datname = :'db'")
  if [ "$exists" = 0 ]; then
    psql -X -q -v ON_ERROR_STOP=1 -v db="$db" <<< 'CREATE DATABASE :"db"'
  fi
  comment=$(psql -X -At -v ON_ERROR_STOP=1 -v db="$db" <<< "SELECT coalesce(pg_catalog.shobj_description(oid, 'pg_database'), '') FROM pg_catalog.pg_database WHERE datname = :'db'")
  if [ "$comment" = "$marker" ]; then
    echo "$key was restored from $stamp by an earlier run; kept as it is"; continue
  fi
  tables=$(PGDATABASE=$db psql -X -At -v ON_ERROR_STOP=1 -c "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'")
  if [ "$tables" != 0 ]; then
    echo "$0: database $key already has $tables tables; a restore does not overwrite data" >&2; exit 1
  fi
  # pg_restore runs the dump's statements itself: no text of the dump reaches psql, so no name in it can be read as
  # a psql meta-command (before 17.6/16.10/15.14/14.19/13.22, pg_restore wrote a name's newlines into its comments
  # as they were: CVE-2025-8714, CVE-2025-8715). The database is named in -d as a connection string with the name
  # quoted by libpq's rules (backslash and single quote escaped), so no name is read as a keyword or an option.
  # One transaction: a failed restore leaves no tables, and the run again restores it. The mark follows in a
  # transaction of its own; a Job stopped between the two finds the tables on its next run and stops, naming them.
  quoted=${db//\\/\\\\} && quoted=${quoted//\'/\\\'}
  pg_restore --exit-on-error --single-transaction -d "dbname='$quoted'" "$work/restore.dump"
  PGDATABASE=$db psql -X -q -v ON_ERROR_STOP=1 -v db="$db" -v marker="$marker" \
    <<< 'COMMENT ON DATABASE :"db" IS :'"'"'marker'"'"
  rm -f "$work/restore.dump"
  echo "restored $key from $stamp"
done < "$small/COMPLETE"
# The databases' settings last, once every database exists; setting them again is the same, so a retried
# restore runs them again. Messages as SQLSTATEs only, as for the roles.
if [ -f "$small/SETTINGS" ]; then
  if [ ! -f "$small/settings.sql" ] || [ "$(sha256sum < "$small/settings.sql" | cut -d' ' -f1)" != "$(cat "$small/SETTINGS")" ]; then
    echo "$0: settings.sql of $stamp does not match its checksum" >&2; exit 1
  fi
  if ! psql -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=sqlstate -v restore_postgres="${RESTORE_POSTGRES:-false}" \
      --single-transaction -f "$small/settings.sql" \
      > /dev/null 2> "$work/settings.err"; then
    echo "$0: the database settings of $stamp could not be restored: $(head -n 3 "$work/settings.err" | tr '\n' ' ')" >&2
    exit 1
  fi
  echo "restored the database settings of $stamp"
fi
echo "logical restore of $stamp complete"
