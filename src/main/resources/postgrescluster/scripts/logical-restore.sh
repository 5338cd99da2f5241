# The logical restore, after logical-common.sh: each database of the chosen backup, checked against the manifest.
stamp=${RESTORE_BACKUP:-$(complete | tail -n 1)}
if [ -z "$stamp" ] || ! s3 s3 cp --quiet "$url/$stamp/COMPLETE" "$work/manifest" 2>/dev/null; then
  echo "$0: no complete logical backup${RESTORE_BACKUP:+ $RESTORE_BACKUP} under $url/" >&2
  exit 1
fi
while read -r db sum; do
  s3 s3 cp --quiet "$url/$stamp/$db.dump" "$work/$db.dump"
  if [ "$(sha256sum "$work/$db.dump" | cut -d' ' -f1)" != "$sum" ]; then
    echo "$0: $db.dump of $stamp does not match its checksum" >&2; exit 1
  fi
  exists=$(psql -X -At -v ON_ERROR_STOP=1 -v db="$db" <<< "SELECT count(*) FROM pg_catalog.pg_database WHERE datname = :'db'")
  if [ "$exists" = 0 ]; then
    psql -X -q -v ON_ERROR_STOP=1 -v db="$db" <<< 'CREATE DATABASE :"db"'
  fi
  tables=$(psql -X -At -v ON_ERROR_STOP=1 -d "$db" -c "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'")
  if [ "$tables" != 0 ]; then
    echo "$0: database $db already has $tables tables; a restore does not overwrite data" >&2; exit 1
  fi
  pg_restore --exit-on-error -d "$db" "$work/$db.dump"
  rm -f "$work/$db.dump"
  echo "restored $db from $stamp"
done < "$work/manifest"
echo "logical restore of $stamp complete"
