# The store check, after store-common.sh: what the primary says of WAL archiving (pg_stat_archiver) and what the
# store holds in WAL-G's layout (complete base backups: basebackups_005/<name>_backup_stop_sentinel.json with their
# StartTime and FinishTime, wal-g internal/databases/postgres/backup_sentinel_dto.go:184-193; archived WAL:
# wal_005/<segment>.<compression>), written as the data of ConfigMap $REPORT_CONFIGMAP through the API server. The
# hook never sets that data (Metacontroller's merge keeps fields it does not set), it only reads it. Every finding
# is reported, also the failure to look; the exit status is 0 only when both the primary and the store answered.
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/psql" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
keys=(format checkedAt database databaseError archiveMode archivedCount lastArchivedWal lastArchivedTime
  failedCount lastFailedWal lastFailedTime store storeError baseBackups lastBackupName lastBackupStart
  lastBackupEnd firstRecoverabilityPoint walSegments newestWal lastArchivedInStore)
declare -A report
for key in "${keys[@]}"; do report[$key]=""; done
report[format]=1
report[checkedAt]=$(date -u +%Y-%m-%dT%H:%M:%SZ)
utc() { date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ 2> /dev/null; }
# One line of what a failed command wrote, for the report.
first_line() { tr -s '\r\n' '  ' < "$1" | cut -c1-300; }

# The primary first: a segment it says it archived was archived before the store is listed.
stamp="'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'"
if psql -X -At -v ON_ERROR_STOP=1 -F '|' -c "SELECT pg_is_in_recovery(), current_setting('archive_mode'),
    archived_count, coalesce(last_archived_wal, ''),
    coalesce(to_char(last_archived_time AT TIME ZONE 'UTC', $stamp), ''), failed_count,
    coalesce(last_failed_wal, ''), coalesce(to_char(last_failed_time AT TIME ZONE 'UTC', $stamp), '')
    FROM pg_catalog.pg_stat_archiver" > "$work/archiver" 2> "$work/error"; then
  IFS='|' read -r recovery mode archived last_wal last_time failed failed_wal failed_time < "$work/archiver"
  if [ "$recovery" = t ]; then
    report[database]=error
    report[databaseError]="$PGHOST answered as a replica (in recovery), not as the primary"
  else
    report[database]=ok
    report[archiveMode]=$mode report[archivedCount]=$archived report[lastArchivedWal]=$last_wal
    report[lastArchivedTime]=$last_time report[failedCount]=$failed report[lastFailedWal]=$failed_wal
    report[lastFailedTime]=$failed_time
  fi
else
  report[database]=error
  report[databaseError]="cannot read pg_stat_archiver on $PGHOST: $(first_line "$work/error")"
fi

list() {
  s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$1" --query 'Contents[].Key' --output text \
    > "$work/keys" 2> "$work/error" && tr '\t' '\n' < "$work/keys" | { grep -v '^None$' || true; } | cut -c"$((${#1} + 1))"-
}
base="$S3_PREFIX/basebackups_005/"
if list "$base" > "$work/names"; then
  report[store]=ok
  : > "$work/backups"
  while IFS= read -r name; do
    if ! s3 s3 cp --quiet "s3://$S3_BUCKET/$base${name}_backup_stop_sentinel.json" "$work/sentinel" 2> "$work/error"; then
      continue
    fi
    start=$(sed -n 's/.*"StartTime": *"\([^"]*\)".*/\1/p' "$work/sentinel")
    finish=$(sed -n 's/.*"FinishTime": *"\([^"]*\)".*/\1/p' "$work/sentinel")
    if start=$(utc "$start") && finish=$(utc "$finish"); then
      printf '%s %s %s\n' "$start" "$finish" "$name" >> "$work/backups"
    fi
  done < <({ grep -E '^[^/]+_backup_stop_sentinel\.json$' "$work/names" || true; } | sed 's/_backup_stop_sentinel\.json$//')
  sort -o "$work/backups" "$work/backups"
  report[baseBackups]=$(wc -l < "$work/backups" | tr -d ' ')
  if [ -s "$work/backups" ]; then
    read -r 'report[lastBackupStart]' 'report[lastBackupEnd]' 'report[lastBackupName]' < <(tail -n 1 "$work/backups")
    # A restore from a base backup reaches any point after the backup's end, so the oldest one's end is the first.
    read -r _ 'report[firstRecoverabilityPoint]' _ < "$work/backups"
  fi
  wal="$S3_PREFIX/wal_005/"
  if list "$wal" > "$work/wal"; then
    { grep -oE '^[0-9A-F]{24}' "$work/wal" || true; } | sort -u > "$work/segments"
    report[walSegments]=$(wc -l < "$work/segments" | tr -d ' ')
    report[newestWal]=$(tail -n 1 "$work/segments")
    if [ -n "${report[lastArchivedWal]}" ]; then
      # WAL-G stores a file under its own name plus the compression's extension.
      if awk -v f="${report[lastArchivedWal]}" '$0 == f || index($0, f ".") == 1 { found = 1 } END { exit !found }' \
          "$work/wal"; then
        report[lastArchivedInStore]=yes
      else
        report[lastArchivedInStore]=no
      fi
    fi
  else
    report[store]=error
    report[storeError]="cannot list s3://$S3_BUCKET/$wal: $(first_line "$work/error")"
  fi
else
  report[store]=error
  report[storeError]="cannot list s3://$S3_BUCKET/$base (check the bucket, the endpoint and the credentials Secret): $(first_line "$work/error")"
fi

# JSON strings: backslash and quote escaped, control characters dropped (a report is one line per value).
json() {
  local s=$1
  s=${s//\\/\\\\} && s=${s//\"/\\\"}
  printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}
{
  printf '{"data":{'
  separator=""
  for key in "${keys[@]}"; do
    printf '%s"%s":%s' "$separator" "$key" "$(json "${report[$key]}")"
    separator=","
  done
  printf '}}'
} > "$work/body"

sa=${SERVICE_ACCOUNT_DIR:-/var/run/secrets/kubernetes.io/serviceaccount}
case "$KUBERNETES_SERVICE_HOST" in
  *:*) api="https://[$KUBERNETES_SERVICE_HOST]:$KUBERNETES_SERVICE_PORT" ;;
  *) api="https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT" ;;
esac
code=$(curl -sS -o "$work/answer" -w '%{http_code}' --cacert "$sa/ca.crt" \
  -H "Authorization: Bearer $(cat "$sa/token")" -H 'Content-Type: application/merge-patch+json' -X PATCH \
  --data-binary @"$work/body" "$api/api/v1/namespaces/$(cat "$sa/namespace")/configmaps/$REPORT_CONFIGMAP") || code=000
if [ "$code" != 200 ]; then
  echo "$0: cannot write the report into ConfigMap $REPORT_CONFIGMAP: HTTP $code $(first_line "$work/answer")" >&2
  exit 1
fi
for key in "${keys[@]}"; do echo "$key: ${report[$key]}"; done
[ "${report[database]}" = ok ] && [ "${report[store]}" = ok ]
