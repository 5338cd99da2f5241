#!/bin/bash
# The final backup's fence, before its push: after it, the primary accepts no commit, so the final backup and the WAL
# archived after it hold everything the cluster committed. New transactions are read-only by default
# (default_transaction_read_only through ALTER SYSTEM and a reload); once a new session sees that, every client
# session that began before is ended (its open transaction, never committed, is rolled back). Patroni's own sessions
# are left alone. A retried Job fences again.
# The fence lives in the running server only: as soon as the postmaster has read it (a new session starts read-only;
# sessions are forked from the postmaster with its settings), ALTER SYSTEM RESET takes it out of postgresql.auto.conf
# again, without a reload. So the base backup pushed next, which copies postgresql.auto.conf as it is, and the data
# directory a cluster created again over the retained volumes starts from, never hold it: both start writable. Only a
# reload (SIGHUP) would lift it before the deletion ends; the Job's last step fails when a new session is no longer
# read-only, and the retried Job fences and backs up again, so no commit escapes the final backup.
set -euo pipefail
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/psql" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
query() { psql -X -At -v ON_ERROR_STOP=1 -c "$1"; }

if [ "$(query "SELECT pg_is_in_recovery()")" != f ]; then
  echo "$0: $PGHOST answered as a replica (in recovery), not as the primary; nothing fenced" >&2
  exit 1
fi
query "ALTER SYSTEM SET default_transaction_read_only = on" > /dev/null
# Whatever happens next, the file never keeps the fence (on a failure, the Job's next try sets it again).
trap 'query "ALTER SYSTEM RESET default_transaction_read_only" > /dev/null' EXIT
query "SELECT pg_reload_conf()" > /dev/null
# The postmaster reads the reload asynchronously: wait until a new session starts read-only.
for _ in $(seq 1 60); do
  if [ "$(query "SHOW default_transaction_read_only")" = on ]; then
    query "ALTER SYSTEM RESET default_transaction_read_only" > /dev/null
    ended=$(query "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
        AND coalesce(application_name, '') NOT LIKE 'Patroni%'")
    echo "fenced $PGHOST: new transactions are read-only; ended $ended client sessions"
    exit 0
  fi
  sleep 1
done
echo "$0: $PGHOST did not take default_transaction_read_only = on within 60 s of its reload" >&2
exit 1
