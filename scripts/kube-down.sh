#!/usr/bin/env bash
# Stops the control plane scripts/kube-up.sh started in DIR: exactly the processes listed in DIR/pids, newest first,
# and only while each still runs what kube-up started (a pid reused by another program is left alone).
# Usage: scripts/kube-down.sh DIR   (the logs stay in DIR/logs; etcd's data is removed)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir="$1"
[ -f "$dir/pids" ] || { echo "no control plane in $dir (no pids file)" >&2; exit 0; }

# The pids of DIR/pids, newest first, whose command line still names DIR (every component is given a path in it).
ours() {
  local pid
  tac "$dir/pids" | while read -r pid; do
    [ -n "$pid" ] && { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null | grep -qF -- "$dir/" && echo "$pid"
  done
  return 0
}

mapfile -t running < <(ours)
[ "${#running[@]}" -eq 0 ] || kill "${running[@]}" 2> /dev/null || true
for _ in $(seq 50); do
  mapfile -t running < <(ours)
  [ "${#running[@]}" -eq 0 ] && break
  sleep 0.2
done
[ "${#running[@]}" -eq 0 ] || kill -9 "${running[@]}" 2> /dev/null || true
rm -rf "$dir/etcd" "$dir/pids"
