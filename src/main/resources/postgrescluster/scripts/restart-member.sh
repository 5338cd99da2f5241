#!/bin/sh
# The restart Job of a rollout: deletes one member's pod through the API server, so that the StatefulSet controller
# creates it again from the current template (updateStrategy OnDelete). Only the pod that was observed: the uid is
# a precondition, so a try that comes late never deletes the pod that replaced it. The pod and its uid: POD, POD_UID.
set -eu
pod=$POD
uid=$POD_UID
case "$uid" in
  '' | *[!0-9a-f-]*) echo "Pod $pod: uid '$uid' is not a Kubernetes uid" >&2; exit 1 ;;
esac
sa=${SERVICE_ACCOUNT_DIR:-/var/run/secrets/kubernetes.io/serviceaccount}
case "$KUBERNETES_SERVICE_HOST" in
  *:*) api="https://[$KUBERNETES_SERVICE_HOST]:$KUBERNETES_SERVICE_PORT" ;;
  *) api="https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT" ;;
esac
code=$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$sa/ca.crt" -H "Authorization: Bearer $(cat "$sa/token")" \
  -X DELETE -H 'Content-Type: application/json' \
  --data "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"$uid\"}}" \
  "$api/api/v1/namespaces/$(cat "$sa/namespace")/pods/$pod")
case "$code" in
  200|202) echo "Pod $pod ($uid): deleted; the StatefulSet controller starts it again from the current template" ;;
  404|409) echo "Pod $pod ($uid): already gone or replaced" ;;
  *) echo "Pod $pod ($uid): HTTP $code" >&2; exit 1 ;;
esac
