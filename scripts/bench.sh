#!/usr/bin/env bash
# JMH benchmarks of the in-process pipeline (request bytes -> FrontDoor -> response bytes) for every
# controller, each beside its parse-and-write baseline. Arguments go to JMH, e.g.
#   scripts/bench.sh                                   # everything (about 25 minutes)
#   scripts/bench.sh -p request=catset:1000,catset:10000 PipelineBenchmark
#   scripts/bench.sh -rf json -rff target/jmh.json     # results as JSON too
set -euo pipefail
cd "$(dirname "$0")/.."
# The bench profile adds JMH's annotation processor; a changed classpath makes Maven recompile the tests.
mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath
if [ ! -f target/test-classes/META-INF/BenchmarkList ]; then
  # Test classes compiled without the profile are up to date for Maven: compile them again with it.
  rm -rf target/test-classes
  mvn -B -q -Pbench test-compile
fi
exec java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" -Dmetahooks.projectDir="$PWD" \
  org.openjdk.jmh.Main "$@"
