# The logical backup, after logical-common.sh: each database into a new stamp's folder, then the manifest.
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dest="$url/$stamp"
trap 's3 s3 rm --recursive --quiet "$dest/" || true; echo "$0: backup $stamp failed; nothing of it is kept" >&2' ERR
# $1: database-settings.sql. The postgres database only when asked (WITH_POSTGRES).
settings_sql=$1 with_postgres=${WITH_POSTGRES:-false}
# Every upload asks the store to encrypt it when spec.backup.encryption.serverSide says so.
upload=(s3 s3 cp --quiet)
if [ -n "${S3_SSE:-}" ]; then upload+=(--sse "$S3_SSE"); fi
if [ -n "${S3_SSE_KMS_ID:-}" ]; then upload+=(--sse-kms-key-id "$S3_SSE_KMS_ID"); fi
psql -X -At -v ON_ERROR_STOP=1 -v with_postgres="$with_postgres" <<< "SELECT encode(convert_to(datname, 'UTF8'), 'hex') FROM pg_catalog.pg_database WHERE datallowconn AND NOT datistemplate AND (datname <> 'postgres' OR :'with_postgres' = 'true') ORDER BY datname" > "$work/databases"
: > "$work/manifest" && db=""
while read -r hex; do
  key=$(key_of_hex "$hex")
  rm -f "$work/dump-fifo" && mkfifo "$work/dump-fifo"
  sha256sum < "$work/dump-fifo" > "$work/sum" &
  name_of_key db "$key"
  # The pooler's schema is the cluster's own, made again by the target's pooler: never part of the data.
  PGDATABASE=$db pg_dump -Fc --exclude-schema=metahooks | tee "$work/dump-fifo" | "${upload[@]}" - "$dest/$key.dump"
  wait $!
  echo "$key $(cut -d' ' -f1 "$work/sum")" >> "$work/manifest"
  echo "dumped $key to $dest/$key.dump"
done < "$work/databases"
# What belongs to no database: roles (without their passwords: a restore must not change the target's), their
# memberships and their settings (ALTER ROLE ... SET); tablespaces are paths of this cluster's.
mkdir "$work/small"
pg_dumpall --globals-only --no-role-passwords --no-tablespaces > "$work/small/globals.sql"
sha256sum < "$work/small/globals.sql" | cut -d' ' -f1 > "$work/small/GLOBALS"
# Each dumped database's own settings, and its roles' settings in it (pg_dump writes them only with --create).
psql -X -At -v ON_ERROR_STOP=1 -v with_postgres="$with_postgres" <<< "$settings_sql" > "$work/small/settings.sql"
sha256sum < "$work/small/settings.sql" | cut -d' ' -f1 > "$work/small/SETTINGS"
# The four small files in one upload, the manifest alone and last: a backup is complete once COMPLETE is there.
"${upload[@]}" --recursive "$work/small/" "$dest/"
echo "dumped the roles, their memberships and settings to $dest/globals.sql"
echo "dumped the settings of the databases ($(grep -c '^ALTER ' "$work/small/settings.sql" || true) statements) to $dest/settings.sql"
"${upload[@]}" "$work/manifest" "$dest/COMPLETE"
trap - ERR
echo "logical backup $stamp complete: $(wc -l < "$work/manifest") databases"
# Retention, from one listing: every folder older than the oldest complete backup kept goes, a failed backup's too.
listing > "$work/listing"
keep=$(complete < "$work/listing" | tail -n "$RETAIN" | head -n 1)
while read -r _ _ _ key; do
  folder=${key#"$S3_PREFIX/logical/"}
  if [[ $folder == */* ]]; then printf '%s\n' "${folder%%/*}"; fi
done < "$work/listing" | sort -u > "$work/folders"
while read -r old; do
  if [[ "$old" < "$keep" ]]; then s3 s3 rm --recursive --quiet "$url/$old/"; echo "removed backup $old (retention $RETAIN)"; fi
done < "$work/folders"
