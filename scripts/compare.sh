#!/usr/bin/env bash
# metahooks beside minimal Node.js and Python hooks doing the same work (scripts/baselines/), in one run, as
# deployed: the Dockerfile's JVM flags and class-data archive, -XX:MaxRAM=512m (the JVM sizes itself as in the
# 512 MiB Deployment: a 384 MiB heap that starts small), the response cache off so that every answer is computed.
# Prints the load average before and after; ratios within one run are what count on a shared machine
# (docs/performance.md).
#   scripts/compare.sh [rounds, default 7]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
command -v wrk >/dev/null 2>&1 || { (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null; }
mvn -B -q -DskipTests package test-compile -pl :metahooks -am
mvn -B -q test-compile dependency:build-classpath -pl :metahooks -am -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
out=target/compare
mkdir -p "$out"
generate() { [ -f "$out/$2" ] || java -cp "target/test-classes:target/classes:$(cat target/test.classpath)" \
  -Dmetahooks.projectDir="$PWD" dev.metahooks.bench.RequestGenerator "$1" "$out/$2"; }
generate hello-world small.json
generate catset:1000 catset-1000.json
generate catset:10000 catset-10000.json
flags=$(python3 -c 'import json; e=next(l for l in open("Dockerfile") if l.startswith("ENTRYPOINT"));
print(" ".join(w.replace("/app/","target/") for w in json.loads(e[10:])[1:-2]))')
if [[ $flags == *SharedArchiveFile=* ]] && [ ! -f target/metahooks.jsa ]; then
  # shellcheck disable=SC2086 # $flags holds several JVM options: split into words on purpose
  METAHOOKS_LOG_LEVEL=warn java -XX:ArchiveClassesAtExit=target/metahooks.jsa ${flags//-XX:SharedArchiveFile=target\/metahooks.jsa/} \
    -Xmx384m -jar target/metahooks.jar train src/test/resources/fixtures 2>/dev/null
fi
# shellcheck disable=SC2086 # $flags holds several JVM options: split into words on purpose
exec python3 scripts/compare.py "$out" "$rounds" $flags
