#!/bin/sh
# The resize Job: grows each data claim named after the size and the StatefulSet to the size, then deletes the
# StatefulSet with propagationPolicy Orphan, so that its pods keep running and the hook re-creates it with the
# larger claim template (a StatefulSet's claim templates are immutable). Arguments: size, StatefulSet, claims.
set -eu
size=$1
statefulset=$2
shift 2
sa=${SERVICE_ACCOUNT_DIR:-/var/run/secrets/kubernetes.io/serviceaccount}
case "$KUBERNETES_SERVICE_HOST" in
  *:*) api="https://[$KUBERNETES_SERVICE_HOST]:$KUBERNETES_SERVICE_PORT" ;;
  *) api="https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT" ;;
esac
namespace=$(cat "$sa/namespace")
call() {
  curl -sS -o /dev/null -w '%{http_code}' --cacert "$sa/ca.crt" -H "Authorization: Bearer $(cat "$sa/token")" "$@"
}
for claim in "$@"; do
  code=$(call -X PATCH -H 'Content-Type: application/merge-patch+json' \
    --data "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"$size\"}}}}" \
    "$api/api/v1/namespaces/$namespace/persistentvolumeclaims/$claim")
  case "$code" in
    200) echo "PersistentVolumeClaim $claim: requests $size" ;;
    404) echo "PersistentVolumeClaim $claim: gone" ;;
    *) echo "PersistentVolumeClaim $claim: HTTP $code" >&2; exit 1 ;;
  esac
done
code=$(call -X DELETE -H 'Content-Type: application/json' \
  --data '{"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Orphan"}' \
  "$api/apis/apps/v1/namespaces/$namespace/statefulsets/$statefulset")
case "$code" in
  200|202|404) echo "StatefulSet $statefulset: deleted, its pods orphaned" ;;
  *) echo "StatefulSet $statefulset: HTTP $code" >&2; exit 1 ;;
esac
