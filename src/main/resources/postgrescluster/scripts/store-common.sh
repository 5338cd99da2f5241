#!/bin/bash
# What every script that reads or writes the store shares, put before each of them: a private work directory and
# the AWS CLI's addressing.
set -euo pipefail
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
if [ "$S3_FORCE_PATH_STYLE" = true ]; then
  printf '[default]\ns3 =\n  addressing_style = path\n' > "$work/aws-config"
  export AWS_CONFIG_FILE="$work/aws-config"
fi
s3() { aws ${S3_ENDPOINT:+--endpoint-url "$S3_ENDPOINT"} "$@"; }
