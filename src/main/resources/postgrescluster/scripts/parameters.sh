#!/bin/sh
# The parameters Job: PATCH /config of Patroni's REST API with $PATCH, waiting for the API to answer; then reads
# back, until every member runs with them, the settings of $EXPECTED on each member of GET /cluster ($1,
# parameters-readback.sql, prints what differs). Fails when a member still differs after $READBACK_TRIES tries five
# seconds apart (60: five minutes, unless set).
set -eu
readback_sql=$1
patched=no
for _ in $(seq 1 60); do
  code=$(printf 'user = "%s:%s"\n' "$PATRONI_USERNAME" "$PATRONI_PASSWORD" | curl -sS -K - \
    --max-time 30 -o /tmp/answer -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' \
    -d "$PATCH" "$PATRONI_URL/config") || code=000
  echo "PATCH /config: HTTP $code $(cat /tmp/answer 2>/dev/null || true)"
  case "$code" in
    200) patched=yes; break ;;
    000|502|503) sleep 5 ;;
    *) exit 1 ;;
  esac
done
[ "$patched" = yes ] || exit 1
for _ in $(seq 1 "${READBACK_TRIES:-60}"); do
  members=$(curl -sS --max-time 30 "$PATRONI_URL/cluster" | python3 -c '
import json, sys
for member in json.load(sys.stdin).get("members", []):
    print(member.get("name", "?"), member.get("host", "?"), member.get("port", 5432), member.get("state", "?"))
') || members=""
  differ=""
  [ -n "$members" ] || differ=" GET /cluster gave no members;"
  while read -r name host port state; do
    [ -n "$name" ] || continue
    # PostgreSQL runs: Patroni 3.0 says running for every member; since 3.1 a replica shows its replication
    # state instead (utils.py cluster_as_json, v4.1.5:967).
    case "$state" in
      running|streaming|"in archive recovery") ;;
      *) differ="$differ $name is $state;"; continue ;;
    esac
    out=$(printf '%s\n' "$readback_sql" | PGHOST=$host PGPORT=$port psql -X -q -At -v ON_ERROR_STOP=1 \
      -v expected="$EXPECTED" 2>&1) || out="psql failed: $out"
    [ -z "$out" ] || differ="$differ $name runs $(echo "$out" | tr '\n' ' ');"
  done <<MEMBERS
$members
MEMBERS
  if [ -z "$differ" ]; then
    echo "every member runs with the settings sent"
    exit 0
  fi
  echo "not applied yet:$differ"
  sleep 5
done
exit 1
