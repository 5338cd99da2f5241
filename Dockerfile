# syntax=docker/dockerfile:1
# metahooks image: `docker build -t ghcr.io/metahooks/metahooks:0.1.0 .`

# Build stage. Dependencies are fetched in a layer of their own, keyed on pom.xml alone, so that a change to
# the sources rebuilds only the last two layers.
FROM maven:3-eclipse-temurin-17 AS build
WORKDIR /build
COPY pom.xml ./
RUN mvn -B -q dependency:go-offline
COPY src ./src
# Produces target/metahooks.jar and its runtime dependencies in target/lib (Class-Path: lib/...).
RUN mvn -B -DskipTests package

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
# Numeric, so that the kubelet can check runAsNonRoot against the image.
USER 10001:10001
EXPOSE 8080
# Container-aware JVM settings; the root filesystem may be read-only (only /tmp is written, by the JVM):
# - MaxRAMPercentage: the heap follows the container's memory limit, leaving a quarter for metaspace,
#   code cache, thread stacks and Jetty's direct buffers;
# - ExitOnOutOfMemoryError: a JVM that ran out of heap is restarted by the kubelet rather than left
#   half-working; Metacontroller retries the hook call;
# - the full tiered JIT is kept: the server runs for long and its hooks are CPU-bound.
# Arguments after the image name are passed to metahooks: `docker run -i IMAGE sync hello-world < request.json`.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/metahooks.jar"]
