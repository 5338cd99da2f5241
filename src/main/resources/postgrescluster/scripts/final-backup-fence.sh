#!/bin/bash
# The final backup's fence, before its push: after it, the primary accepts no commit, so the final backup and the WAL
# archived after it hold everything the cluster committed. New transactions are read-only by default
# (default_transaction_read_only through ALTER SYSTEM and a reload); once a new session sees that, every client
# session that began before is ended (its open transaction, never committed, is rolled back). Patroni's own sessions
# are left alone. A cluster being deleted never serves again: the fence is not lifted, and a retried Job fences again.
set -euo pipefail
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/psql" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
query() { psql -X -At -v ON_ERROR_STOP=1 -c "$1"; }

if [ "$(query "SELECT pg_is_in_recovery()")" != f ]; then
  echo "$0: $PGHOST answered as a replica (in recovery), not as the primary; nothing fenced" >&2
  exit 1
fi
query "ALTER SYSTEM SET default_transaction_read_only = on" > /dev/null
query "SELECT pg_reload_conf()" > /dev/null
# The postmaster reads the reload asynchronously: wait until a new session starts read-only.
for _ in $(seq 1 60); do
  if [ "$(query "SHOW default_transaction_read_only")" = on ]; then
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
