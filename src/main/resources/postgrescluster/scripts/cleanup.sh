#!/bin/sh
# The cleanup Job: deletes each of Patroni's ConfigMaps named as an argument through the API server.
set -eu
sa=${SERVICE_ACCOUNT_DIR:-/var/run/secrets/kubernetes.io/serviceaccount}
case "$KUBERNETES_SERVICE_HOST" in
  *:*) api="https://[$KUBERNETES_SERVICE_HOST]:$KUBERNETES_SERVICE_PORT" ;;
  *) api="https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT" ;;
esac
for name in "$@"; do
  code=$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$sa/ca.crt" \
    -H "Authorization: Bearer $(cat "$sa/token")" -X DELETE \
    "$api/api/v1/namespaces/$(cat "$sa/namespace")/configmaps/$name")
  case "$code" in
    200|202|404) echo "ConfigMap $name: gone" ;;
    *) echo "ConfigMap $name: HTTP $code" >&2; exit 1 ;;
  esac
done
