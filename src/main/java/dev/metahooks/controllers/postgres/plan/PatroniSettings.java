package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.List;
import java.util.Optional;

/**
 * {@code spec.patroni} in Patroni's dynamic configuration: {@code failsafe_mode}, {@code synchronous_mode},
 * {@code synchronous_mode_strict} and {@code synchronous_node_count} (Patroni 3.0 reads each from the DCS,
 * patroni/config.py). They reach a new cluster in SPILO_CONFIGURATION's {@code bootstrap.dcs} (Patroni writes it into
 * the DCS when it initialises the cluster) and a running one through the parameters Job's {@code PATCH /config}
 * ({@code ParameterJobs}). The bootstrap values are decided once, when the StatefulSet is first rendered, and read
 * back from it afterwards: rendered again from the spec they would change the pod template, and so restart every
 * pod, for a change that Patroni applies live.
 */
public final class PatroniSettings {
  public static final List<String> KEYS =
      List.of(
          "failsafe_mode", "synchronous_mode", "synchronous_mode_strict", "synchronous_node_count");

  private PatroniSettings() {}

  /** The settings as Patroni's dynamic configuration keys. */
  public static ObjectNode dynamic(ClusterSpec.Patroni patroni) {
    return Json.object()
        .put("failsafe_mode", patroni.failsafeMode())
        .put("synchronous_mode", patroni.synchronous())
        .put("synchronous_mode_strict", "strict".equals(patroni.synchronousMode()))
        .put("synchronous_node_count", patroni.synchronousNodeCount());
  }

  /**
   * The bootstrap settings the StatefulSet carries in SPILO_CONFIGURATION: those of the observed StatefulSet when
   * there is one (none, for a StatefulSet rendered before these settings existed), else the spec's.
   */
  public static ObjectNode bootstrap(ClusterSpec.Patroni patroni, ObservedCluster observed) {
    return observed
        .statefulSet()
        .map(PatroniSettings::bootstrapOf)
        .orElseGet(() -> dynamic(patroni));
  }

  /** The settings in a StatefulSet's bootstrap DCS configuration. */
  private static ObjectNode bootstrapOf(JsonNode sts) {
    ObjectNode settings = Json.object();
    JsonNode dcs =
        spiloConfiguration(sts)
            .flatMap(v -> read(v.path("value").asText("")))
            .orElse(Json.object())
            .path("bootstrap")
            .path("dcs");
    KEYS.stream().filter(dcs::has).forEach(key -> settings.set(key, dcs.get(key)));
    return settings;
  }

  private static Optional<ObjectNode> spiloConfiguration(JsonNode sts) {
    for (JsonNode env : ObservedCluster.spiloEnv(sts.at("/spec/template/spec"))) {
      if ("SPILO_CONFIGURATION".equals(env.path("name").asText())
          && env instanceof ObjectNode variable) {
        return Optional.of(variable);
      }
    }
    return Optional.empty();
  }

  private static Optional<JsonNode> read(String json) {
    try {
      JsonNode node = Json.reader().readTree(json);
      return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty(); // not Spilo's JSON: nothing known
    }
  }
}
