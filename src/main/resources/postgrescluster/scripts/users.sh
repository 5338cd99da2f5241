#!/bin/sh
# The users Job: the application users and the declared databases ($1, users.sql) and the cluster's component
# roles ($2, component-roles.sql) in one psql session; then, in each database named by the arguments after $4,
# one session each: the declared database's schemas and extensions ($4, database-objects.sql) and, with the
# pooler on, its lookup function ($3, pooler-lookup.sql). Names and verifiers reach SQL only as psql variables,
# and a database only as PGDATABASE (never a psql argument, which libpq could read as a connection string).
set -eu
users_sql=$1 roles_sql=$2 lookup_sql=$3 objects_sql=$4
shift 4
if [ "${POOLER_ROLE:-off}" != on ]; then lookup_sql=''; fi
for _ in $(seq 1 60); do pg_isready -q && break; sleep 5; done
printf '%s\n' "$users_sql" "$roles_sql" | psql -X -q -v ON_ERROR_STOP=1 \
  -v users="$USERS" -v verifiers="${VERIFIERS:-}" \
  -v databases="${DATABASES:-[]}" -v database_mark="${DATABASE_MARK:-}" \
  -v exporter="${EXPORTER_ROLE:-off}" -v exporter_verifier="${EXPORTER_VERIFIER:-}" \
  -v pooler="${POOLER_ROLE:-off}" -v pooler_verifier="${POOLER_VERIFIER:-}"
for database in "$@"; do
  printf '%s\n' "$objects_sql" "$lookup_sql" | PGDATABASE=$database psql -X -q -v ON_ERROR_STOP=1 \
    -v databases="${DATABASES:-[]}"
done
