#!/usr/bin/env bash
# Mixed traffic against the real server for a while (default 5 minutes at concurrency 64): every fixture of
# every controller, large generated requests and a share of bad ones. Fails on any unexpected status and
# prints throughput, latency and the server's resident memory every 5 s.
#   scripts/soak.sh [seconds] [concurrency]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
concurrency=${2:-64}
port=${METAHOOKS_SOAK_PORT:-18080}

mvn -B -q -DskipTests package test-compile -pl :metahooks -am
mvn -B -q test-compile dependency:build-classpath -pl :metahooks -am -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath

# The server as the Dockerfile runs it, with the heap the Deployment's memory limit gives it (75% of 512Mi),
# logging warnings only so that the disk is not the bottleneck.
METAHOOKS_PORT=$port METAHOOKS_LOG_LEVEL=warn \
  java -Xmx384m -XX:+ExitOnOutOfMemoryError -jar target/metahooks.jar 2> target/soak-server.log &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://localhost:$port/readyz" >/dev/null && break
  sleep 0.2
done

java -cp "target/test-classes:target/classes:$(cat target/test.classpath)" -Dmetahooks.projectDir="$PWD" \
  dev.metahooks.bench.Soak "http://localhost:$port" "$seconds" "$concurrency" "$server"
