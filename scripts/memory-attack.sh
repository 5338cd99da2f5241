#!/usr/bin/env bash
# The memory attacks of docs/reliability.md against the server in a JVM of its own with the Dockerfile's flags and
# -Xmx384m: every status and time, the time to the first 429/503 of four 39 MB CatSets at once, peak RSS. About
# two minutes.
#   scripts/memory-attack.sh                         # this checkout
#   scripts/memory-attack.sh /tmp/old/metahooks.jar  # another build, for a before/after figure
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q test-compile dependency:build-classpath -pl :metahooks -am -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
exec java -cp "target/test-classes:target/classes:$(cat target/test.classpath)" -Dmetahooks.projectDir="$PWD" \
  dev.metahooks.bench.MemoryAttack "$@"
