package dev.metahooks.controllers.postgres.children.pooler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.BuilderTestSupport;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.access.PoolerAccess;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.controllers.postgres.children.pod.Exporters;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.status.ComponentConditions;
import dev.metahooks.testsupport.ThirdPartyCrds;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pooler's and the exporter's children and conditions (rendering; the real components run in PoolerPgBouncerIT and ExporterPostgresIT). */
class PoolersTest {
  private static final ClusterSpec POOLED =
      BuilderTestSupport.spec(spec -> spec.putObject("pooler"));

  @Test
  void offUnlessGivenAndOnOnceGivenUnlessDisabled() {
    assertThat(Poolers.build("pg", "shop", BuilderTestSupport.spec(spec -> {}), Optional.empty()))
        .isEmpty();
    assertThat(
            Poolers.build(
                "pg",
                "shop",
                BuilderTestSupport.spec(spec -> spec.putObject("pooler").put("enabled", false)),
                Optional.empty()))
        .isEmpty();
    assertThat(Poolers.build("pg", "shop", POOLED, Optional.empty()))
        .extracting(c -> c.path("kind").asText() + "/" + Names.of(c))
        .containsExactly(
            "ConfigMap/pg-pooler",
            "Service/pg-pooler",
            "Deployment/pg-pooler",
            "PodDisruptionBudget/pg.pooler");
    assertThat(POOLED.pooler())
        .isEqualTo(
            new ClusterSpec.Pooler(true, 2, "session", 20, 1000, ClusterSpec.DEFAULT_POOLER_IMAGE));
  }

  @Test
  void thePoolerPodsAreNeverSelectedAsDatabasePods() {
    ObjectNode deployment =
        child(Poolers.build("pg", "shop", POOLED, Optional.empty()), "Deployment");
    JsonNode labels = deployment.at("/spec/template/metadata/labels");
    assertThat(labels.path(Labels.COMPONENT).asText()).isEqualTo("pooler");
    assertThat(labels.has(Labels.CLUSTER_NAME)).as("Patroni's scope label").isFalse();
    assertThat(labels.path(Labels.NAME).asText()).isNotEqualTo(Labels.APP);
    // The Service and the budget select exactly the Deployment's pods.
    Map<String, Object> selector = Map.of(Labels.NAME, "pgbouncer", Labels.INSTANCE, "pg");
    for (ObjectNode child : Poolers.build("pg", "shop", POOLED, Optional.empty())) {
      JsonNode chosen =
          child.path("kind").asText().equals("Service")
              ? child.at("/spec/selector")
              : child.at("/spec/selector/matchLabels");
      if (!chosen.isMissingNode()) {
        assertThat(chosen.properties())
            .extracting(Map.Entry::getKey)
            .containsExactlyInAnyOrderElementsOf(selector.keySet());
        chosen
            .properties()
            .forEach(
                e -> assertThat(labels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
      }
    }
  }

  @Test
  void theConfigurationNamesThePrimaryTheModeAndTheLookupAndNoUser() {
    ClusterSpec spec =
        BuilderTestSupport.spec(
            s ->
                s.putObject("pooler")
                    .put("mode", "transaction")
                    .put("defaultPoolSize", 7)
                    .put("maxClientConnections", 300));
    String config = Poolers.config("orders", "shop", spec.pooler(), Optional.empty());
    assertThat(config.lines())
        .contains(
            "* = host=orders-rw.shop.svc port=5432",
            "pool_mode = transaction",
            "default_pool_size = 7",
            "max_client_conn = 300",
            "auth_type = scram-sha-256",
            "auth_user = " + ServiceRoles.POOLER,
            "auth_query = SELECT usename, passwd FROM metahooks.pooler_lookup($1)",
            "server_tls_sslmode = require",
            "client_tls_sslmode = require");
    assertThat(PoolerAccess.authFile("pa\"ss")).isEqualTo("\"metahooks_pooler\" \"pa\"\"ss\"\n");
  }

  @Test
  void aHibernatingClusterRunsNoPoolerPods() {
    ClusterSpec hibernating =
        BuilderTestSupport.spec(s -> s.put("instances", 0).putObject("pooler").put("instances", 3));
    assertThat(
            child(Poolers.build("pg", "shop", hibernating, Optional.empty()), "Deployment")
                .at("/spec/replicas")
                .asInt())
        .isZero();
    assertThat(
            child(Poolers.build("pg", "shop", POOLED, Optional.empty()), "Deployment")
                .at("/spec/replicas")
                .asInt())
        .isEqualTo(2);
  }

  @Test
  void aNewConfigurationRollsThePoolerPods() {
    ClusterSpec session = POOLED;
    ClusterSpec transaction =
        BuilderTestSupport.spec(s -> s.putObject("pooler").put("mode", "transaction"));
    String before =
        child(Poolers.build("pg", "shop", session, Optional.empty()), "Deployment")
            .at("/spec/template/metadata/annotations")
            .path(Poolers.CONFIG_HASH)
            .asText();
    String after =
        child(Poolers.build("pg", "shop", transaction, Optional.empty()), "Deployment")
            .at("/spec/template/metadata/annotations")
            .path(Poolers.CONFIG_HASH)
            .asText();
    assertThat(before).hasSize(10).isNotEqualTo(after);
  }

  static String config(ObservedRequests world) {
    return world.children.get("ConfigMap/pg-pooler").at("/data/" + Poolers.CONFIG_FILE).asText();
  }

  @Test
  void theConditionSaysHowManyPoolerPodsAreAvailable() {
    ObservedRequests world = new ObservedRequests("pg", Json.object());
    world.spec.putObject("pooler").put("instances", 3);
    world.sync();
    ObservedCluster observed = observed(world);
    assertThat(ComponentConditions.pooler(POOLED, observed))
        .hasValueSatisfying(
            c -> assertThat(c.reason() + " " + c.status()).isEqualTo("PoolerUnavailable false"));
    ((ObjectNode) world.children.get("Deployment/pg-pooler"))
        .putObject("status")
        .put("availableReplicas", 1);
    observed = observed(world);
    assertThat(ComponentConditions.pooler(POOLED, observed))
        .hasValueSatisfying(
            c ->
                assertThat(c.reason() + " " + c.message())
                    .isEqualTo(
                        "PoolerDegraded 1 of 2 pooler pods available (Deployment pg-pooler)"));
    ((ObjectNode) world.children.get("Deployment/pg-pooler"))
        .putObject("status")
        .put("availableReplicas", 2);
    observed = observed(world);
    assertThat(ComponentConditions.pooler(POOLED, observed))
        .hasValueSatisfying(c -> assertThat(c.status()).isTrue());
    assertThat(ComponentConditions.pooler(BuilderTestSupport.spec(s -> {}), observed)).isEmpty();
  }

  @Test
  void theExporterSidecarAndItsCondition() {
    ClusterSpec monitored =
        BuilderTestSupport.spec(s -> s.putObject("monitoring").put("enabled", true));
    ObjectNode sidecar = Exporters.container("pg", monitored).orElseThrow();
    assertThat(
            sidecar.at("/ports/0/name").asText()
                + ":"
                + sidecar.at("/ports/0/containerPort").asInt())
        .isEqualTo("metrics:9187");
    assertThat(sidecar.at("/env/1/valueFrom/secretKeyRef/name").asText()).isEqualTo("pg-exporter");
    assertThat(Exporters.container("pg", BuilderTestSupport.spec(s -> {}))).isEmpty();

    ObservedRequests world = new ObservedRequests("pg", Json.object().put("instances", 2));
    world.sync();
    world.runAllReady();
    world.pods.forEach(
        (name, pod) -> {
          var statuses = pod.withObjectProperty("status").putArray("containerStatuses");
          statuses.addObject().put("name", Exporters.CONTAINER).put("ready", !name.equals("pg-1"));
        });
    ObservedCluster observed = observed(world);
    assertThat(ComponentConditions.exporter(monitored, observed))
        .hasValueSatisfying(
            c ->
                assertThat(c.reason() + ": " + c.message())
                    .isEqualTo("ExporterNotReady: the exporter is not ready in pg-1"));
  }

  @Test
  void aPodMonitorOnlyWhereTheControllerDeclaresTheType() {
    ObservedRequests world = new ObservedRequests("pg", Json.object());
    world.spec.putObject("monitoring").put("enabled", true);
    assertThat(kinds(world.sync())).doesNotContain("PodMonitor");
    world.podMonitorsDeclared = true;
    JsonNode monitor =
        world.sync().path("children").findParents("kind").stream()
            .filter(c -> c.path("kind").asText().equals("PodMonitor"))
            .findFirst()
            .orElseThrow();
    assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(monitor.at("/spec/podMetricsEndpoints/0/port").asText())
        .isEqualTo(Exporters.PORT_NAME);
    assertThat(monitor.at("/spec/selector/matchLabels")).isEqualTo(Labels.podSelector("pg"));
    ThirdPartyCrds.assertValid(monitor);
    ObjectNode broken = monitor.deepCopy();
    ((ObjectNode) broken.at("/spec/podMetricsEndpoints/0")).put("interval", "30 seconds");
    assertThatThrownBy(() -> ThirdPartyCrds.assertValid(broken)).isInstanceOf(AssertionError.class);
    world.edit(spec -> spec.remove("monitoring"));
    assertThat(kinds(world.sync())).doesNotContain("PodMonitor");
  }

  private static List<String> kinds(JsonNode answer) {
    List<String> kinds = new java.util.ArrayList<>();
    answer.path("children").forEach(c -> kinds.add(c.path("kind").asText()));
    return kinds;
  }

  private static ObservedCluster observed(ObservedRequests world) {
    return world.observed();
  }

  private static ObjectNode child(List<ObjectNode> children, String kind) {
    return children.stream()
        .filter(c -> c.path("kind").asText().equals(kind))
        .findFirst()
        .orElseThrow();
  }
}
