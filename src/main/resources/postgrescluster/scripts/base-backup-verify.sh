# The base backup Job's last step, after store-common.sh: the push counts only if the store holds a complete base
# backup that started after this Job did. WAL-G uploads a backup's completion sentinel
# basebackups_005/<name>_backup_stop_sentinel.json last, once every part is stored, with the backup's StartTime and
# FinishTime (wal-g internal/databases/postgres/backup_push_handler.go:485, backup_sentinel_dto.go:184-193).
base="$S3_PREFIX/basebackups_005/"
store="s3://$S3_BUCKET/$base"
if [ ! -s "$BACKUP_RUN/started" ]; then
  echo "$0: $BACKUP_RUN/started is missing: the Job's start was not recorded, so no backup can be shown to be newer" >&2
  exit 1
fi
started=$(cat "$BACKUP_RUN/started")
since=$(date -u -d "@$started" +%Y-%m-%dT%H:%M:%SZ)
if ! s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$base" --query 'Contents[].Key' --output text \
    > "$work/keys" 2> "$work/error"; then
  echo "$0: cannot list $store (check the bucket, the endpoint and the credentials Secret): $(cat "$work/error")" >&2
  exit 1
fi
tr '\t' '\n' < "$work/keys" | cut -c"$((${#base} + 1))"- > "$work/names"
{ grep -E '^[^/]+_backup_stop_sentinel\.json$' "$work/names" || true; } | sed 's/_backup_stop_sentinel\.json$//' | sort > "$work/complete"
{ grep -oE '^[^/]+/' "$work/names" || true; } | tr -d / | sort -u > "$work/folders"
newest=""
while IFS= read -r name; do
  if ! s3 s3 cp --quiet "$store${name}_backup_stop_sentinel.json" "$work/sentinel" 2> "$work/error"; then
    echo "$0: cannot read the sentinel of $name: $(cat "$work/error")" >&2
    continue
  fi
  start=$(sed -n 's/.*"StartTime": *"\([^"]*\)".*/\1/p' "$work/sentinel")
  finish=$(sed -n 's/.*"FinishTime": *"\([^"]*\)".*/\1/p' "$work/sentinel")
  if [ -z "$start" ] || [ -z "$finish" ] || ! start_s=$(date -u -d "$start" +%s 2> /dev/null); then
    echo "$0: the sentinel of $name has no readable StartTime and FinishTime; not counted" >&2
    continue
  fi
  if [ "$start_s" -ge "$started" ]; then
    echo "verified base backup $name in $store: started $start, finished $finish"
    exit 0
  fi
  newest="$name (started $start)"
done < "$work/complete"
incomplete=$(comm -23 "$work/folders" "$work/complete" | tr '\n' ' ')
echo "$0: no complete base backup in $store started after this Job did ($since):" \
  "${newest:+the newest complete one is $newest; }${incomplete:+without a completion sentinel (incomplete): $incomplete; }" \
  "$(wc -l < "$work/complete") backups with a _backup_stop_sentinel.json in all; the push step's log says why" >&2
exit 1
