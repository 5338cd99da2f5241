package dev.metahooks.controllers.postgres.children.pod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.PodSecurity;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.Optional;

/**
 * Metrics ({@code spec.monitoring}): a postgres_exporter sidecar in every database pod, on port
 * {@value #PORT} named {@value #PORT_NAME}, logging in over the pod's loopback as the {@code metahooks_exporter}
 * role (member of {@code pg_monitor}, nothing more) with the password of the {@code <n>-exporter} Secret; and a
 * Service {@code <n>-metrics} with that port over the database pods. Spilo's own ports stay as they are.
 */
public final class Exporters {
  public static final String CONTAINER = "exporter";
  public static final int PORT = 9187;
  public static final String PORT_NAME = "metrics";
  public static final String COMPONENT = "metrics";

  private Exporters() {}

  /** The sidecar, when monitoring is on. */
  public static Optional<ObjectNode> container(String cluster, ClusterSpec spec) {
    if (!spec.monitoring().enabled()) {
      return Optional.empty();
    }
    ObjectNode container =
        Json.object()
            .put("name", CONTAINER)
            .put("image", spec.monitoring().image())
            .put("imagePullPolicy", "IfNotPresent");
    container.putArray("args").add("--web.listen-address=:" + PORT);
    container.putArray("ports").addObject().put("name", PORT_NAME).put("containerPort", PORT);
    container.set("env", env(cluster));
    ObjectNode resources = container.putObject("resources");
    resources.putObject("requests").put("cpu", "10m").put("memory", "32Mi");
    resources.putObject("limits").put("memory", "128Mi");
    container.set("securityContext", PodSecurity.container());
    // Ready once it serves: whether PostgreSQL answers is what pg_up says, not a reason to restart.
    ObjectNode readiness = container.putObject("readinessProbe");
    readiness.putObject("httpGet").put("path", "/").put("port", PORT);
    readiness.put("periodSeconds", 10).put("timeoutSeconds", 5);
    return Optional.of(container);
  }

  /** postgres_exporter's connection: this pod's PostgreSQL, TLS as Spilo requires, the role from its Secret. */
  public static ArrayNode env(String cluster) {
    ArrayNode env = Json.array();
    env.addObject()
        .put("name", "DATA_SOURCE_URI")
        .put("value", "127.0.0.1:" + Spilo.POSTGRES_PORT + "/postgres?sslmode=require");
    for (String[] variable :
        new String[][] {{"DATA_SOURCE_USER", "username"}, {"DATA_SOURCE_PASS", "password"}}) {
      env.addObject()
          .put("name", variable[0])
          .putObject("valueFrom")
          .putObject("secretKeyRef")
          .put("name", Names.exporterSecret(cluster))
          .put("key", variable[1]);
    }
    return env;
  }

  /** The Service {@code <n>-metrics}, when monitoring is on: every database pod's exporter port. */
  public static Optional<ObjectNode> service(String cluster, ClusterSpec spec) {
    if (!spec.monitoring().enabled()) {
      return Optional.empty();
    }
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    service
        .putObject("metadata")
        .put("name", Names.metricsService(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    ObjectNode serviceSpec = service.putObject("spec").put("type", "ClusterIP");
    serviceSpec.set("selector", Labels.podSelector(cluster));
    serviceSpec
        .putArray("ports")
        .addObject()
        .put("name", PORT_NAME)
        .put("port", PORT)
        .put("targetPort", PORT);
    return Optional.of(service);
  }

  /**
   * A Prometheus Operator PodMonitor {@code <n>} over the database pods' {@value #PORT_NAME} port, when monitoring
   * is on and the controller declares the type (the optional component adds it where the CRD is installed).
   */
  public static Optional<ObjectNode> podMonitor(
      String cluster, ClusterSpec spec, boolean podMonitorsDeclared) {
    if (!spec.monitoring().enabled() || !podMonitorsDeclared) {
      return Optional.empty();
    }
    ObjectNode monitor =
        Json.object()
            .put("apiVersion", ChildTypes.POD_MONITOR.apiVersion())
            .put("kind", ChildTypes.POD_MONITOR.kind());
    monitor
        .putObject("metadata")
        .put("name", cluster)
        .set("labels", Labels.child(cluster, COMPONENT));
    ObjectNode monitorSpec = monitor.putObject("spec");
    monitorSpec.putObject("selector").set("matchLabels", Labels.podSelector(cluster));
    monitorSpec
        .putArray("podMetricsEndpoints")
        .addObject()
        .put("port", PORT_NAME)
        .put("interval", "30s");
    return Optional.of(monitor);
  }
}
