#!/bin/bash
# pg_restore as it was before PostgreSQL 17.6, 16.10, 15.14, 14.19 and 13.22 (August 2025), where it writes text
# (-f -): no \restrict line first, and each comment carries an object's name as it is, newlines and all
# (CVE-2025-8714, CVE-2025-8715). It runs the real one ($REAL_PG_RESTORE) and writes its text back so: a comment
# naming $HOSTILE_NAME as the fixed versions print it ($PRINTED_NAME: newlines as spaces) names it as it is.
# Restoring into a database (-d) is the real one's own.
set -euo pipefail
for arg in "$@"; do
  if [ "$arg" = -f ]; then
    text=$("$REAL_PG_RESTORE" "$@" | grep -v -E '^\\(un)?restrict ')
    printf '%s\n' "${text//"Name: $PRINTED_NAME;"/"Name: $HOSTILE_NAME;"}"
    exit 0
  fi
done
exec "$REAL_PG_RESTORE" "$@"
