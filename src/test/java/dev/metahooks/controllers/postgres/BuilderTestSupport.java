package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.json.JsonTrees;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/** Specs for builder tests: the CRD defaults, changed as a test needs. */
public final class BuilderTestSupport {
  private BuilderTestSupport() {}

  /** No spec.tls: what Secrets and pods are rendered with when the cluster has no certificate of its own. */
  public static final Tls.State NO_TLS = Tls.check(Optional.empty(), null, Instant.EPOCH);

  /** The cluster's Secrets as one call plans and renders them. */
  public static java.util.List<ObjectNode> secrets(
      String cluster,
      String namespace,
      ClusterSpec spec,
      dev.metahooks.controllers.postgres.observed.ObservedCluster observed,
      Tls.State tls,
      dev.metahooks.api.Sources sources) {
    return dev.metahooks.controllers.postgres.children.access.Secrets.build(
        cluster,
        namespace,
        spec,
        dev.metahooks.controllers.postgres.plan.Credentials.decide(
            cluster,
            namespace,
            spec,
            observed,
            dev.metahooks.controllers.postgres.children.access.Secrets.wanted(cluster, spec),
            sources),
        tls);
  }

  /** The StatefulSet builder's own output for a spec: no TLS, no bootstrap settings, namespace shop. */
  public static ObjectNode statefulSet(String cluster, ClusterSpec spec) {
    return StatefulSets.build(
        cluster, "shop", spec, Json.object(), Optional.empty(), spec.instances());
  }

  public static ClusterSpec spec(Consumer<ObjectNode> change) {
    SpecReader.Result result = SpecReader.read(SpecReaderTest.parent("pg", change));
    if (!result.valid()) {
      throw new AssertionError("test spec is invalid: " + result.problems());
    }
    return result.spec();
  }

  /** The rendered StatefulSet's SPILO_CONFIGURATION (Patroni's configuration that Spilo merges over its own), parsed. */
  static JsonNode spiloConfiguration(JsonNode statefulSet) {
    for (JsonNode env : statefulSet.at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals("SPILO_CONFIGURATION")) {
        try {
          return JsonTrees.MAPPER.readTree(env.path("value").asText());
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    }
    throw new AssertionError("no SPILO_CONFIGURATION");
  }
}
