# The final backup's last step, after store-common.sh and the verified push: the WAL up to now is in the archive.
# pg_switch_wal() closes the segment in use (pg_walfile_name of its end is that segment; with nothing written since
# the last switch, the one before); then the step waits until wal_005/ holds it (WAL-G names it <segment>.<compression>)
# and fails, saying what the primary's archiver reports, when it does not within ARCHIVE_WAIT_SECONDS. Once the
# store has it, a new session must still start read-only: the fence (final-backup-fence.sh) is not in
# postgresql.auto.conf, so a reload since then lifted it, and a commit may have come after the backup; the step fails
# and the retried Job fences and backs up again.
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/psql" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
query() { psql -X -At -v ON_ERROR_STOP=1 -c "$1"; }
wal="$S3_PREFIX/wal_005/"
segment=$(query "SELECT pg_walfile_name(pg_switch_wal())")
deadline=$(($(date +%s) + ARCHIVE_WAIT_SECONDS))
while true; do
  if s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$wal$segment" --query 'Contents[].Key' --output text \
      > "$work/keys" 2> "$work/error" && tr '\t' '\n' < "$work/keys" | { grep -v '^None$' || true; } \
      | cut -c"$((${#wal} + ${#segment} + 1))"- | grep -qE '^(\..*)?$'; then
    if [ "$(query "SHOW default_transaction_read_only")" != on ]; then
      echo "$0: the fence was lifted during the final backup (a reload of the configuration, which no longer holds" \
        "it): commits may have come after the backup; the Job fences and backs up again" >&2
      exit 1
    fi
    echo "archived: every WAL segment up to $segment is in s3://$S3_BUCKET/$wal"
    exit 0
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    archiver=$(query "SELECT 'last archived ' || coalesce(last_archived_wal, 'none') || ' at '
      || coalesce(last_archived_time::text, '-') || ', last failed ' || coalesce(last_failed_wal, 'none') || ' at '
      || coalesce(last_failed_time::text, '-') FROM pg_stat_archiver" 2>&1 || true)
    echo "$0: s3://$S3_BUCKET/$wal does not hold $segment after ${ARCHIVE_WAIT_SECONDS} s; the volumes stay until it" \
      "does (pg_stat_archiver: $archiver; the store: $(tr -s '\r\n' '  ' < "$work/error" | cut -c1-300))" >&2
    exit 1
  fi
  sleep 5
done
