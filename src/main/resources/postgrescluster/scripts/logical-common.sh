# What the logical backup and restore scripts share, after store-common.sh: the client version, the store
# check, waiting for the primary.
if [ -x "/usr/lib/postgresql/$PGVERSION/bin/pg_dump" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
url="s3://$S3_BUCKET/$S3_PREFIX/logical"
if ! s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$S3_PREFIX/" --max-items 1 > "$work/s3-check" 2>&1; then
  echo "$0: cannot list s3://$S3_BUCKET/$S3_PREFIX/ (check the bucket, the endpoint and the credentials Secret): $(cat "$work/s3-check")" >&2
  exit 1
fi
for _ in $(seq 1 60); do pg_isready -q && break; sleep 5; done
# Database names are data: they come from SQL as hex, become object keys percent-encoded (bytes A-Z a-z 0-9 _ . -
# as they are, any other as %XX), and reach libpq only through PGDATABASE, which libpq never reads as a
# connection string, and never as an argument that could be an option.
key_of_hex() {
  local LC_ALL=C hex=$1 key="" byte char
  while [ -n "$hex" ]; do
    byte=${hex:0:2} && hex=${hex:2}
    printf -v char '%b' "\\x$byte"
    case $char in
      [A-Za-z0-9_.-]) key+=$char ;;
      *) key+="%${byte^^}" ;;
    esac
  done
  printf '%s' "$key"
}
# name_of_key VAR KEY: sets VAR to the name KEY stands for, byte for byte (a name may end in a newline).
name_of_key() { printf -v "$1" '%b' "${2//%/\\x}"; }
# Every key under $url/, one listing ("date time size key" per line; nothing when the store cannot be listed).
listing() { s3 s3 ls --recursive "$url/" 2>/dev/null || true; }
# From a listing: the stamps of the complete backups, oldest first.
complete() { awk '{ print $4 }' | { grep -oE '/[0-9]{8}T[0-9]{6}Z/COMPLETE$' || true; } | cut -d/ -f2 | sort; }
