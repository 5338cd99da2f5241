#!/usr/bin/env bash
# Starts a Kubernetes control plane on loopback for tests: etcd, kube-apiserver (with the admission plugins a real
# cluster enables, Pod Security among them, and RBAC), kube-controller-manager, kube-scheduler, and KWOK playing three
# nodes. Writes DIR/kubeconfig (an administrator), links kubectl and helm of the same build into DIR/bin, and returns
# once a node is Ready and the default ServiceAccount exists. Every process it starts is listed in DIR/pids;
# scripts/kube-down.sh DIR stops exactly those.
# Usage: scripts/kube-up.sh DIR   (DIR is made if missing; the binaries come from controlplane/build.sh)
# No container runs: pods get addresses from 10.244.0.0/16 and Services from 10.96.0.0/16, which nothing dials.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
# shellcheck source=SCRIPTDIR/../controlplane/components.sh
source "$(dirname "$0")/../controlplane/components.sh"
for binary in "$kubernetes_bin/kube-apiserver" "$etcd_bin/etcd" "$kwok_bin/kwok"; do
  [ -x "$binary" ] || { echo "$binary is missing: run controlplane/build.sh first" >&2; exit 3; }
done
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
[ -e "$dir/pids" ] && { echo "$dir already holds a control plane (pids); stop it with scripts/kube-down.sh" >&2; exit 2; }
mkdir -p "$dir/logs" "$dir/pki" "$dir/bin"
# The clients of this control plane's version, for the tests that drive it.
ln -sf "$kubernetes_bin/kubectl" "$dir/bin/kubectl"
[ -x "$helm_bin/helm" ] && ln -sf "$helm_bin/helm" "$dir/bin/helm"
: > "$dir/pids"
# A start that fails half-way stops what it started.
trap '[ $? -eq 0 ] || "$(dirname "$0")/kube-down.sh" "$dir"' EXIT

# Five free loopback ports: etcd's client and peer ports, the API server's, the controller manager's and the
# scheduler's (both serve /healthz over HTTPS).
read -r etcd_port peer_port api_port kcm_port scheduler_port < <(python3 - <<'PY'
import socket
sockets = [socket.socket() for _ in range(5)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])
PY
)

# Starts "$@" in the background, logging to logs/$1.log, and records its pid. Go's collector runs about a quarter as
# often as by default (GOGC=400): the tests keep the plane busy, and the machine has memory to spare, not cores.
start() {
  local name="$1"; shift
  GOGC="${GOGC:-400}" "$@" > "$dir/logs/$name.log" 2>&1 &
  echo "$!" >> "$dir/pids"
}

# Runs "$@" once a second until it succeeds, for at most $2 seconds; on failure shows the log of component $1.
await() {
  local name="$1" seconds="$2"; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" > /dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "kube-up: $name not ready after $seconds s; the end of $dir/logs/$name.log:" >&2
      tail -n 40 "$dir/logs/$name.log" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
}

kubectl() { "$kubernetes_bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

openssl genrsa -out "$dir/pki/service-account.key" 2048 2> /dev/null
token="$(openssl rand -hex 24)"
printf '%s,admin,admin,system:masters\n' "$token" > "$dir/pki/tokens.csv"
chmod 600 "$dir/pki/tokens.csv"
cat > "$dir/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: metahooks-test
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority: $dir/pki/apiserver.crt
users:
- name: admin
  user:
    token: $token
contexts:
- name: metahooks-test
  context: {cluster: metahooks-test, user: admin}
current-context: metahooks-test
KUBECONFIG
chmod 600 "$dir/kubeconfig"

start etcd "$etcd_bin/etcd" --name=node0 --data-dir="$dir/etcd" --unsafe-no-fsync --log-level=warn \
  --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
  --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
  --initial-cluster="node0=http://127.0.0.1:$peer_port" --listen-metrics-urls=""
await etcd 30 curl -fs "http://127.0.0.1:$etcd_port/health"

# The admission plugins: kube-apiserver's defaults (Pod Security, ServiceAccount, ResourceQuota, LimitRanger,
# PersistentVolumeClaimResize, the admission policies and webhooks, ...) plus NodeRestriction, as kubeadm enables.
start kube-apiserver "$kubernetes_bin/kube-apiserver" --etcd-servers="http://127.0.0.1:$etcd_port" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" --cert-dir="$dir/pki" \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$dir/pki/service-account.key" \
  --service-account-signing-key-file="$dir/pki/service-account.key" \
  --service-cluster-ip-range=10.96.0.0/16 --token-auth-file="$dir/pki/tokens.csv" \
  --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction --allow-privileged=true \
  --profiling=false
await kube-apiserver 120 kubectl get --raw /readyz

start kube-controller-manager "$kubernetes_bin/kube-controller-manager" --kubeconfig="$dir/kubeconfig" \
  --authentication-kubeconfig="$dir/kubeconfig" --authorization-kubeconfig="$dir/kubeconfig" \
  --leader-elect=false --bind-address=127.0.0.1 --secure-port="$kcm_port" --profiling=false \
  --service-account-private-key-file="$dir/pki/service-account.key" --root-ca-file="$dir/pki/apiserver.crt" \
  --use-service-account-credentials=true --cluster-cidr=10.244.0.0/16 --service-cluster-ip-range=10.96.0.0/16 \
  --concurrent-gc-syncs=5 --kube-api-qps=100 --kube-api-burst=200
start kube-scheduler "$kubernetes_bin/kube-scheduler" --kubeconfig="$dir/kubeconfig" \
  --authentication-kubeconfig="$dir/kubeconfig" --authorization-kubeconfig="$dir/kubeconfig" \
  --leader-elect=false --bind-address=127.0.0.1 --secure-port="$scheduler_port" --profiling=false
start kwok "$kwok_bin/kwok" --kubeconfig="$dir/kubeconfig" \
  --config="$kwok_bin/stages.yaml" --config="$controlplane_dir/stages.yaml" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
  --cidr=10.244.0.0/16 --node-ip=10.244.255.254 --node-lease-duration-seconds=40

kubectl apply -f "$controlplane_dir/cluster.yaml" > /dev/null
await kwok 60 kubectl wait --for=condition=Ready node --all --timeout=1s
await kube-controller-manager 60 kubectl -n default get serviceaccount default
await kube-scheduler 30 curl -fsk "https://127.0.0.1:$scheduler_port/healthz"
echo "control plane up: KUBECONFIG=$dir/kubeconfig"
