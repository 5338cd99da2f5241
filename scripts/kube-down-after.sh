#!/usr/bin/env bash
# Stops the control plane in DIR once process PID has exited: for a control plane the test JVMs of one build share,
# which outlives the JVM that started it and goes with the build (PID: Maven's). Start it detached (setsid); it
# checks every two seconds, then runs scripts/kube-down.sh DIR.
# Usage: scripts/kube-down-after.sh PID DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PID DIR" >&2; exit 2; }
while kill -0 "$1" 2> /dev/null; do sleep 2; done
exec "$(dirname "$0")/kube-down.sh" "$2"
