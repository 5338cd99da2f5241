#!/usr/bin/env bash
# Copies the kustomize sources the Helm chart renders into manifests/helm/metahooks/files/, so that the chart is a
# plain directory (no symlinks: `helm lint` and `helm package` take it as it is). Run it after changing any of them;
# HelmChartFilesTest fails while a copy differs from its source.
set -euo pipefail
cd "$(dirname "$0")/.."
files=manifests/helm/metahooks/files
# source directory (relative to the repository) -> directory under files/
pairs=(
  "manifests/base:base"
  "manifests/crds:crds"
  "manifests/overlays/secure:secure"
  "manifests/components/hook-server-monitoring:components/hook-server-monitoring"
  "metacontroller:metacontroller"
)
rm -rf "$files"
for pair in "${pairs[@]}"; do
  source="${pair%%:*}"
  target="$files/${pair#*:}"
  mkdir -p "$target"
  cp "$source"/* "$target"/
done
echo "copied into $files: ${pairs[*]}"
