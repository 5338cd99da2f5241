# syntax=docker/dockerfile:1
# metahooks image: `docker build -t ghcr.io/metahooks/metahooks:0.1.0 .`

# Build stage. Dependencies are fetched in a layer of their own, keyed on the POMs alone, so that a change to
# the sources rebuilds only the last layers. The reactor reads every module's POM; the service (service.xml, src/)
# is built with what it needs: the library and the testing kit (whose tests and the service's are not run).
FROM maven:3-eclipse-temurin-17 AS build
WORKDIR /build
COPY pom.xml service.xml ./
COPY library/pom.xml ./library/
COPY testing/pom.xml ./testing/
COPY examples/greeting/pom.xml ./examples/greeting/
COPY archetype/pom.xml ./archetype/
RUN mvn -B -q -pl :metahooks -am dependency:go-offline
COPY library/src ./library/src
COPY testing/src ./testing/src
COPY controlplane/metacontroller-crds.yaml ./controlplane/
COPY src ./src
# Produces target/metahooks.jar and its runtime dependencies in target/lib (Class-Path: lib/...). The tests are not
# even compiled; the testing kit is built only because the service's tests name it.
RUN mvn -B -Dmaven.test.skip=true -pl :metahooks -am package

# Runtime stage: a JRE, the jar and its libraries, nothing else of the build.
FROM eclipse-temurin:17-jre
# A fixed, non-root uid/gid; the Deployment runs the pod as the same ids (runAsUser/runAsGroup 10001).
RUN groupadd --system --gid 10001 metahooks \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin metahooks
WORKDIR /app
# Libraries change less often than the application: their layer comes first.
COPY --from=build /build/target/lib/ /app/lib/
COPY --from=build /build/target/metahooks.jar /app/metahooks.jar
# Application class-data archive: a training run serves every golden fixture of the sources once and writes the
# classes it loaded (Jetty, Javalin, Jackson, the controllers), parsed and verified, to /app/metahooks.jsa; the
# server maps it at start instead of loading those classes from the jars (first sync 1.0 s -> 0.6 s, see
# docs/performance.md). It is made here, with this image's JVM, these jars and the ENTRYPOINT's flags, because an
# archive only serves the exact JVM, class path and flags it was made with (on a mismatch the JVM ignores it);
# -Xmx384m keeps compressed references on whatever the build machine's memory, as under the 512 MiB limit.
RUN --mount=type=bind,from=build,source=/build/src/test/resources/fixtures,target=/tmp/fixtures \
    METAHOOKS_LOG_LEVEL=warn java -XX:ArchiveClassesAtExit=/app/metahooks.jsa -XX:MaxRAMPercentage=75 \
      -XX:+ExitOnOutOfMemoryError -XX:+UseSerialGC -XX:NewRatio=6 -XX:-UsePerfData -Xmx384m -Xlog:cds=error \
      -jar /app/metahooks.jar train /tmp/fixtures \
 && chmod 0444 /app/metahooks.jsa
# Numeric, so that the kubelet can check runAsNonRoot against the image.
USER 10001:10001
EXPOSE 8080
# JVM settings for a small CPU-bound service (each measured, docs/performance.md); the root filesystem may be
# read-only:
# - MaxRAMPercentage: the heap follows the container's memory limit, leaving a quarter for metaspace,
#   code cache, thread stacks and Jetty's direct buffers; the body budget, the body limit and the answer limit
#   follow the heap (docs/reliability.md has the sum for the Deployment's 512 MiB);
# - ExitOnOutOfMemoryError: a JVM that ran out of heap is restarted by the kubelet rather than left
#   half-working; Metacontroller retries the hook call;
# - SharedArchiveFile: the class-data archive made above;
# - UseSerialGC: what the JVM picks by itself for the Deployment's 1 CPU and 512 MiB, made explicit so that the
#   archive (made with it) always matches; on one core a parallel or concurrent collector only adds threads;
# - NewRatio=6: a young generation of a seventh of the heap (55 MiB of 384) instead of a third (128 MiB); every
#   page of it is touched on every cycle, while the old generation is committed only as far as it grows: peak RSS
#   of four 10,000-Pod CatSets at once 480-496 -> 381-391 MiB, for young collections about twice as often;
# - -UsePerfData: no memory-mapped statistics file in /tmp, which nothing here reads;
# - the full tiered JIT is kept: the server runs for long and its hooks are CPU-bound.
# Arguments after the image name are passed to metahooks: `docker run -i IMAGE sync hello-world < request.json`.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-XX:SharedArchiveFile=/app/metahooks.jsa", "-XX:+UseSerialGC", "-XX:NewRatio=6", "-XX:-UsePerfData", "-jar", "/app/metahooks.jar"]
