package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.pod.Exporters;
import dev.metahooks.controllers.postgres.children.pooler.Poolers;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The conditions of the cluster's optional parts: TLS, the exporter, the pooler. */
public final class ComponentConditions {
  private ComponentConditions() {}

  public static Conditions.Condition tls(Tls.State state) {
    return switch (state.check()) {
      case NOT_CONFIGURED ->
          new Conditions.Condition(Conditions.TLS_READY, true, "NotConfigured", state.message());
      case VALID ->
          new Conditions.Condition(Conditions.TLS_READY, true, "SecretValid", state.message());
      case MISSING ->
          new Conditions.Condition(Conditions.TLS_READY, false, "SecretMissing", state.message());
      case INVALID ->
          new Conditions.Condition(Conditions.TLS_READY, false, "SecretInvalid", state.message());
    };
  }

  /**
   * MonitoringReady, when monitoring is on: every running database pod's exporter container is ready; else the
   * pods whose exporter is not.
   */
  public static Optional<Conditions.Condition> exporter(
      ClusterSpec spec, ObservedCluster observed) {
    if (!spec.monitoring().enabled()) {
      return Optional.empty();
    }
    List<String> notReady = new ArrayList<>();
    int withExporter = 0;
    for (ObjectNode pod : observed.livePods()) {
      Optional<JsonNode> exporter = exporterStatus(pod);
      if (exporter.isPresent()) {
        withExporter++;
        if (!exporter.get().path("ready").asBoolean(false)) {
          notReady.add(Names.of(pod));
        }
      }
    }
    if (!notReady.isEmpty()) {
      return Optional.of(
          new Conditions.Condition(
              Conditions.MONITORING_READY,
              false,
              "ExporterNotReady",
              "the exporter is not ready in " + String.join(", ", notReady)));
    }
    if (withExporter == 0) {
      return Optional.of(
          new Conditions.Condition(
              Conditions.MONITORING_READY,
              false,
              "NoExporter",
              "no database pod runs the exporter yet (the pods roll to add it)"));
    }
    return Optional.of(
        new Conditions.Condition(
            Conditions.MONITORING_READY,
            true,
            "ExportersReady",
            "the exporter is ready in " + withExporter + " pods"));
  }

  /**
   * PoolerReady, when the pooler is on: the Deployment has as many available pods as asked for; otherwise a
   * reason that names what is missing. Nothing is restarted on its account.
   */
  public static Optional<Conditions.Condition> pooler(ClusterSpec spec, ObservedCluster observed) {
    if (!spec.pooler().enabled()) {
      return Optional.empty();
    }
    Optional<ObjectNode> deployment =
        observed.child("apps/v1", "Deployment", Names.pooler(observed.name()));
    if (deployment.isEmpty()) {
      return Optional.of(
          new Conditions.Condition(
              Conditions.POOLER_READY,
              false,
              "NotCreated",
              "Deployment " + Names.pooler(observed.name()) + " does not exist yet"));
    }
    JsonNode status = deployment.get().path("status");
    int wanted = Poolers.replicas(spec);
    int available = status.path("availableReplicas").asInt(0);
    String counts = available + " of " + wanted + " pooler pods available";
    if (available < wanted) {
      return Optional.of(
          new Conditions.Condition(
              Conditions.POOLER_READY,
              false,
              available == 0 ? "PoolerUnavailable" : "PoolerDegraded",
              counts + " (Deployment " + Names.pooler(observed.name()) + ")"));
    }
    return Optional.of(
        new Conditions.Condition(Conditions.POOLER_READY, true, "Available", counts));
  }

  /** The exporter container's status in a pod. */
  private static Optional<JsonNode> exporterStatus(JsonNode pod) {
    for (JsonNode status : pod.path("status").path("containerStatuses")) {
      if (Exporters.CONTAINER.equals(status.path("name").asText())) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }
}
