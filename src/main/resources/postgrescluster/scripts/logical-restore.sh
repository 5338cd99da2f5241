# The logical restore, after logical-common.sh: each database of the chosen backup, checked against the manifest.
stamp=${RESTORE_BACKUP:-$(complete | tail -n 1)}
if [ -z "$stamp" ] || ! s3 s3 cp --quiet "$url/$stamp/COMPLETE" "$work/manifest" 2>/dev/null; then
  echo "$0: no complete logical backup${RESTORE_BACKUP:+ $RESTORE_BACKUP} under $url/" >&2
  exit 1
fi
db="" && marker="restored by metahooks.dev PostgresCluster from logical backup $stamp"
while read -r key sum; do
  name_of_key db "$key"
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
  # pg_restore connects only through -d, which libpq may read as a connection string: it writes the SQL, and
  # psql runs it in the database PGDATABASE names, in one transaction that also marks the database restored. A
  # failed restore leaves no tables; a run again skips the databases an earlier run has restored.
  { pg_restore --exit-on-error -f - "$work/restore.dump"
    echo 'COMMENT ON DATABASE :"metahooks_restore_db" IS :'"'"'metahooks_restore_marker'"'"';'
  } | PGDATABASE=$db psql -X -q -v ON_ERROR_STOP=1 -v metahooks_restore_db="$db" -v metahooks_restore_marker="$marker" \
      --single-transaction > /dev/null
  rm -f "$work/restore.dump"
  echo "restored $key from $stamp"
done < "$work/manifest"
echo "logical restore of $stamp complete"
