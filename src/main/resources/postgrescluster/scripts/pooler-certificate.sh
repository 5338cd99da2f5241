#!/bin/sh
# The pooler's init container: a self-signed certificate for the common name $1 into $TLS_DIR.
set -eu
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=$1" -keyout "$TLS_DIR/tls.key" \
  -out "$TLS_DIR/tls.crt" 2>/dev/null
chmod 600 "$TLS_DIR/tls.key"
