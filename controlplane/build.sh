#!/usr/bin/env bash
# Builds the test control plane from Go modules only: kube-apiserver, kube-controller-manager, kube-scheduler and
# kubectl (k8s.io/kubernetes), etcd (go.etcd.io/etcd), KWOK (sigs.k8s.io/kwok) with its stages, and Helm
# (helm.sh/helm/v3). Each lands in a folder of its own under ~/.cache/metahooks-kube (METAHOOKS_KUBE_CACHE), named by
# its version, and is built only when that folder lacks it: a second run takes a second.
set -euo pipefail
# shellcheck source=SCRIPTDIR/components.sh
source "$(dirname "$0")/components.sh"
export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-trimpath -buildvcs=false"

# Builds the main packages $3... (each NAME=PACKAGE) of the module in folder $1 into binaries NAME in folder $2,
# stamped with ldflags $LDFLAGS. A folder appears only once every binary is in it, so an interrupted build starts
# again.
build() {
  local module="$1" target="$2"; shift 2
  local binary missing=false
  for binary in "$@"; do [ -x "$target/${binary%%=*}" ] || missing=true; done
  "$missing" || return 0
  if [ "$(df -Pk "$kube_cache" | awk 'NR == 2 {print $4}')" -lt $((6 * 1024 * 1024)) ]; then
    echo "controlplane/build.sh: less than 6 GB free under $kube_cache; a cold build needs about that much" >&2
    exit 1
  fi
  echo "building $module into $target" >&2
  local started=$SECONDS
  rm -rf "$target.partial" && mkdir -p "$target.partial"
  for binary in "$@"; do
    (cd "$controlplane_dir/$module" \
      && go build -ldflags "${LDFLAGS:--s -w}" -o "$target.partial/${binary%%=*}" "${binary#*=}")
  done
  rm -rf "$target" && mv "$target.partial" "$target"
  echo "built $module in $((SECONDS - started)) s" >&2
}

mkdir -p "$kube_cache"

version_package=k8s.io/component-base/version
minor="${kubernetes_version#v1.}" && minor="${minor%%.*}"
# Without these the binaries report v0.0.0-master; clients that check the server's version read them.
LDFLAGS="-s -w -X $version_package.gitVersion=$kubernetes_version -X $version_package.gitMajor=1 \
-X $version_package.gitMinor=$minor -X $version_package.gitTreeState=clean \
-X $version_package.buildDate=1970-01-01T00:00:00Z" \
  build kubernetes "$kubernetes_bin" kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver \
  kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager \
  kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler kubectl=k8s.io/kubernetes/cmd/kubectl
build etcd "$etcd_bin" etcd=go.etcd.io/etcd/server/v3
build kwok "$kwok_bin" kwok=sigs.k8s.io/kwok/cmd/kwok
build helm "$helm_bin" helm=helm.sh/helm/v3/cmd/helm

# KWOK's kwok command loads no stage by itself; its module ships them. The fast ones move pods, Jobs' pods, nodes
# and volumes along as a kubelet and a volume provisioner would.
stages="$kwok_bin/stages.yaml"
if ! [ -s "$stages" ]; then
  source_dir="$(cd "$controlplane_dir/kwok" && go mod download -json sigs.k8s.io/kwok | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  for stage in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease \
      pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete \
      volume/fast/pvc-provision volume/fast/pv-bind volume/fast/pv-delete volume/fast/pvc-delete; do
    cat "$source_dir/kustomize/stage/$stage.yaml"
    echo "---"
  done > "$stages.partial"
  mv "$stages.partial" "$stages"
fi
"$kubernetes_bin/kube-apiserver" --version
