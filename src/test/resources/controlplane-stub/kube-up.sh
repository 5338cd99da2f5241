#!/usr/bin/env bash
# A stand-in for scripts/kube-up.sh in ControlPlaneSharingIT: no control plane, one long-running process listed in
# DIR/pids (its command line names DIR/, as kube-down.sh requires), a kubeconfig, and a line in $STAND_IN_STARTS per start.
set -euo pipefail
mkdir -p "$1/logs"
dir="$(cd "$1" && pwd)"
echo "$dir" >> "${STAND_IN_STARTS:?the file to count starts in}"
: > "$dir/logs/stand-in.log"
tail -f "$dir/logs/stand-in.log" < /dev/null > /dev/null 2>&1 &
echo "$!" > "$dir/pids"
printf 'apiVersion: v1\nkind: Config\n' > "$dir/kubeconfig"
