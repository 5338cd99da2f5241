# What the logical backup and restore scripts share, after store-common.sh: the client version, the store
# check, waiting for the primary.
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/pg_dump" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
url="s3://$S3_BUCKET/$S3_PREFIX/logical"
if ! s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$S3_PREFIX/" --max-items 1 > "$work/s3-check" 2>&1; then
  echo "$0: cannot list s3://$S3_BUCKET/$S3_PREFIX/ (check the bucket, the endpoint and the credentials Secret): $(cat "$work/s3-check")" >&2
  exit 1
fi
for _ in $(seq 1 60); do pg_isready -q && break; sleep 5; done
complete() { { s3 s3 ls --recursive "$url/" 2>/dev/null || true; } | awk '{ print $4 }' \
  | { grep -oE '/[0-9]{8}T[0-9]{6}Z/COMPLETE$' || true; } | cut -d/ -f2 | sort; }
