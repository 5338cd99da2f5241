#!/bin/sh
# The switchover Job: POST /switchover from $LEADER to $CANDIDATE to the leader's Patroni REST API.
set -eu
body=$(printf '{"leader":"%s","candidate":"%s"}' "$LEADER" "$CANDIDATE")
code=$(printf 'user = "%s:%s"\n' "$PATRONI_USERNAME" "$PATRONI_PASSWORD" | curl -sS -K - \
  --max-time 90 -o /tmp/answer -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d "$body" "$PATRONI_URL/switchover") || code=000
echo "POST /switchover $LEADER -> $CANDIDATE: HTTP $code $(cat /tmp/answer 2>/dev/null || true)"
[ "$code" = 200 ]
