#!/usr/bin/env bash
# Where each control-plane binary is cached, by component and version. Sourced by build.sh and scripts/kube-up.sh;
# the versions are those the Go modules beside this file require, so a version changes in one place (go.mod).
# shellcheck disable=SC2034  # the variables are read by the scripts that source this file
controlplane_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kube_cache="${METAHOOKS_KUBE_CACHE:-$HOME/.cache/metahooks-kube}"

# The version of module $2 that the Go module in folder $1 requires.
required_version() {
  awk -v module="$2" '($1 == "require" && $2 == module) {print $3} ($1 == module) {print $2}' \
    "$controlplane_dir/$1/go.mod" | head -n 1
}

kubernetes_version="$(required_version kubernetes k8s.io/kubernetes)"
etcd_version="$(required_version etcd go.etcd.io/etcd/server/v3)"
kwok_version="$(required_version kwok sigs.k8s.io/kwok)"
helm_version="$(required_version helm helm.sh/helm/v3)"

kubernetes_bin="$kube_cache/kubernetes-$kubernetes_version"
etcd_bin="$kube_cache/etcd-$etcd_version"
kwok_bin="$kube_cache/kwok-$kwok_version"
helm_bin="$kube_cache/helm-$helm_version"
