#!/bin/bash
# What the logical backup and restore scripts share, put before each of them: a private work directory, the
# client version, the AWS CLI's addressing, the store check, waiting for the primary.
set -euo pipefail
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/pg_dump" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
if [ "$S3_FORCE_PATH_STYLE" = true ]; then
  printf '[default]\ns3 =\n  addressing_style = path\n' > "$work/aws-config"
  export AWS_CONFIG_FILE="$work/aws-config"
fi
s3() { aws ${S3_ENDPOINT:+--endpoint-url "$S3_ENDPOINT"} "$@"; }
url="s3://$S3_BUCKET/$S3_PREFIX/logical"
if ! s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$S3_PREFIX/" --max-items 1 > "$work/s3-check" 2>&1; then
  echo "$0: cannot list s3://$S3_BUCKET/$S3_PREFIX/ (check the bucket, the endpoint and the credentials Secret): $(cat "$work/s3-check")" >&2
  exit 1
fi
for _ in $(seq 1 60); do pg_isready -q && break; sleep 5; done
complete() { { s3 s3 ls --recursive "$url/" 2>/dev/null || true; } | awk '{ print $4 }' \
  | { grep -oE '/[0-9]{8}T[0-9]{6}Z/COMPLETE$' || true; } | cut -d/ -f2 | sort; }
