#!/bin/sh
# The users Job: the application users ($1, users.sql) and the cluster's component roles ($2,
# component-roles.sql) in one psql session; then, with the pooler on, its lookup function ($3, pooler-lookup.sql)
# in each database named by the arguments after it. Names and verifiers reach SQL only as psql variables.
set -eu
users_sql=$1 roles_sql=$2 lookup_sql=$3
shift 3
for _ in $(seq 1 60); do pg_isready -q && break; sleep 5; done
printf '%s\n' "$users_sql" "$roles_sql" | psql -X -q -v ON_ERROR_STOP=1 \
  -v users="$USERS" -v verifiers="${VERIFIERS:-}" \
  -v exporter="${EXPORTER_ROLE:-off}" -v exporter_verifier="${EXPORTER_VERIFIER:-}" \
  -v pooler="${POOLER_ROLE:-off}" -v pooler_verifier="${POOLER_VERIFIER:-}"
for database in "$@"; do
  printf '%s\n' "$lookup_sql" | PGDATABASE=$database psql -X -q -v ON_ERROR_STOP=1
done
