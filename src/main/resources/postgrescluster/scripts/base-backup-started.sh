#!/bin/bash
# The base backup Job's first step: when it started (UTC seconds), for the verification after the push.
set -euo pipefail
date -u +%s > "$BACKUP_RUN/started"
echo "base backup Job started at $(date -u -d "@$(cat "$BACKUP_RUN/started")" +%Y-%m-%dT%H:%M:%SZ)"
