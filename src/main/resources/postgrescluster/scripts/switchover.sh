#!/bin/sh
# The switchover Job: POST /switchover from $LEADER to $CANDIDATE to the leader's Patroni REST API.
# Patroni answers 200 once another member holds the leader lock. It answers 503 when it stopped waiting (about
# 20 s: "Switchover status unknown") or saw the request dropped; the switchover may still end then, and so may one
# whose answer was lost on the way (curl: 28 timed out, 52 empty reply, 56 failure receiving). In those cases
# GET /cluster is asked, $OUTCOME_TRIES times (30 unless set) two seconds apart, until $CANDIDATE holds the lock.
# Any other answer (401, 412: a leader or candidate that does not match) fails at once, and so does a request that
# never reached Patroni (no connection, a certificate not trusted).
set -eu
body=$(printf '{"leader":"%s","candidate":"%s"}' "$LEADER" "$CANDIDATE")
sent=0
code=$(printf 'user = "%s:%s"\n' "$PATRONI_USERNAME" "$PATRONI_PASSWORD" | curl -sS -K - \
  --max-time 90 -o /tmp/answer -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d "$body" "$PATRONI_URL/switchover") || sent=$?
code=${code:-000}
echo "POST /switchover $LEADER -> $CANDIDATE: HTTP $code $(cat /tmp/answer 2>/dev/null || true)"
case "$code:$sent" in
  200:0) exit 0 ;;
  503:0|000:28|000:52|000:56) ;;
  *) exit 1 ;;
esac
for try in $(seq 1 "${OUTCOME_TRIES:-30}"); do
  [ "$try" = 1 ] || sleep 2
  holder=$(curl -sS --max-time 10 "$PATRONI_URL/cluster" | python3 -c '
import json, sys
for member in json.load(sys.stdin).get("members", []):
    if member.get("role") in ("leader", "standby_leader"):
        print(member.get("name", ""))
') || holder=""
  if [ "$holder" = "$CANDIDATE" ]; then
    echo "GET /cluster: $CANDIDATE holds the leader lock"
    exit 0
  fi
  echo "GET /cluster: the leader lock is held by ${holder:-nobody}; waiting for $CANDIDATE"
done
exit 1
