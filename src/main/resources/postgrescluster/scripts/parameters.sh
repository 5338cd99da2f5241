#!/bin/sh
# The parameters Job: PATCH /config of Patroni's REST API with $PATCH, waiting for the API to answer.
set -eu
for _ in $(seq 1 60); do
  code=$(printf 'user = "%s:%s"\n' "$PATRONI_USERNAME" "$PATRONI_PASSWORD" | curl -sS -K - \
    --max-time 30 -o /tmp/answer -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' \
    -d "$PATCH" "$PATRONI_URL/config") || code=000
  echo "PATCH /config: HTTP $code $(cat /tmp/answer 2>/dev/null || true)"
  case "$code" in
    200) exit 0 ;;
    000|502|503) sleep 5 ;;
    *) exit 1 ;;
  esac
done
exit 1
