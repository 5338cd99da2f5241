package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Project;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pooler and the exporter turned on and off on a running cluster, under the emulated Metacontroller with the
 * real manifest: no Secret is regenerated and no volume replaced; the pooler never touches the database pods, the
 * exporter rolls them (it is a sidecar) and nothing else; each feature's condition follows what is observed.
 */
class OperationsScenarioTest {
  private static final String NS = "default";
  private static final String NAME = "orders";

  private Cluster cluster;
  private PostgresParent orders;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    orders = new PostgresParent(cluster, NS, NAME);
    hooks =
        LocalHooks.start(PostgresClusterController.controller(PostgresEmulation.sources(cluster)));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    settle();
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  @Test
  void thePoolerComesAndGoesWithoutTouchingTheDatabasePods() {
    Map<String, String> pods = uids("v1", "Pod");
    Map<String, String> claims = uids("v1", "PersistentVolumeClaim");
    Map<String, JsonNode> secrets = secretData();
    String statefulSet = version("apps/v1", "StatefulSet", NAME);
    String usersJob = usersJob();

    orders.edit(spec -> spec.putObject("pooler").put("instances", 2).put("mode", "transaction"));
    settle();
    assertThat(names("apps/v1", "Deployment")).containsExactly("orders-pooler");
    assertThat(names("v1", "ConfigMap")).contains("orders-pooler");
    assertThat(names("v1", "Service")).contains("orders-pooler");
    assertThat(names("policy/v1", "PodDisruptionBudget"))
        .containsExactly("orders", "orders.pooler");
    assertThat(
            cluster
                .get("apps/v1", "Deployment", NS, "orders-pooler")
                .at("/spec/template/metadata/labels")
                .path(Labels.COMPONENT)
                .asText())
        .isEqualTo("pooler");
    assertThat(
            cluster.get("v1", "ConfigMap", NS, "orders-pooler").at("/data/pgbouncer.ini").asText())
        .contains("pool_mode = transaction", "host=orders-rw.default.svc port=5432");
    assertThat(secretData()).containsKey("orders-pooler");
    assertThat(usersJob())
        .as("the users Job runs again to create the pooler role")
        .isNotEqualTo(usersJob);
    assertCondition("PoolerReady", "True", "Available");
    assertThat(orders.get().at("/status/endpoints/pooler").asText())
        .isEqualTo("orders-pooler.default.svc:5432");
    assertUntouched(pods, claims, secrets);
    assertThat(version("apps/v1", "StatefulSet", NAME))
        .as("the StatefulSet is not written")
        .isEqualTo(statefulSet);
    assertQuiet();
    validObjects();

    // A new pool mode rolls the pooler (its pod template carries the configuration's hash), not the
    // database.
    String template =
        cluster.get("apps/v1", "Deployment", NS, "orders-pooler").at("/spec/template").toString();
    orders.edit(spec -> spec.withObjectProperty("pooler").put("mode", "session"));
    settle();
    assertThat(
            cluster
                .get("apps/v1", "Deployment", NS, "orders-pooler")
                .at("/spec/template")
                .toString())
        .isNotEqualTo(template);
    assertUntouched(pods, claims, secrets);

    orders.edit(spec -> spec.withObjectProperty("pooler").put("enabled", false));
    settle();
    assertThat(names("apps/v1", "Deployment")).isEmpty();
    assertThat(names("v1", "ConfigMap")).doesNotContain("orders-pooler");
    assertThat(names("policy/v1", "PodDisruptionBudget")).containsExactly("orders");
    assertThat(secretData())
        .as("the pooler's Secret stays: its role still exists, NOLOGIN")
        .containsKey("orders-pooler");
    assertThat(conditionTypes()).doesNotContain("PoolerReady");
    assertThat(orders.get().at("/status/endpoints").has("pooler")).isFalse();
    assertUntouched(pods, claims, secrets);
    assertQuiet();
  }

  @Test
  void theExporterRollsTheDatabasePodsAndKeepsEveryVolumeAndSecret() {
    Map<String, String> pods = uids("v1", "Pod");
    Map<String, String> claims = uids("v1", "PersistentVolumeClaim");
    Map<String, JsonNode> secrets = secretData();
    String statefulSetUid =
        cluster.get("apps/v1", "StatefulSet", NS, NAME).at("/metadata/uid").asText();

    orders.edit(spec -> spec.putObject("monitoring").put("enabled", true));
    settle();
    assertThat(containerNames()).containsExactly("postgres", "exporter");
    assertThat(uids("v1", "Pod").values())
        .as("every pod rolled")
        .doesNotContainAnyElementsOf(pods.values());
    assertThat(uids("v1", "PersistentVolumeClaim")).isEqualTo(claims);
    assertThat(cluster.get("apps/v1", "StatefulSet", NS, NAME).at("/metadata/uid").asText())
        .isEqualTo(statefulSetUid);
    assertThat(names("v1", "Service")).contains("orders-metrics");
    JsonNode port = cluster.get("v1", "Service", NS, "orders-metrics").at("/spec/ports/0");
    assertThat(port.path("name").asText() + ":" + port.path("port").asInt())
        .isEqualTo("metrics:9187");
    secrets.forEach(
        (name, data) -> assertThat(secretData().get(name)).as("Secret %s", name).isEqualTo(data));
    assertThat(secretData()).containsKey("orders-exporter");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertCondition("MonitoringReady", "True", "ExportersReady");
    assertQuiet();
    validObjects();

    Map<String, String> rolled = uids("v1", "Pod");
    orders.edit(spec -> spec.withObjectProperty("monitoring").put("enabled", false));
    settle();
    assertThat(containerNames()).containsExactly("postgres");
    assertThat(uids("v1", "Pod").values()).doesNotContainAnyElementsOf(rolled.values());
    assertThat(uids("v1", "PersistentVolumeClaim")).isEqualTo(claims);
    assertThat(names("v1", "Service")).doesNotContain("orders-metrics");
    assertThat(secretData()).containsKey("orders-exporter");
    assertThat(conditionTypes()).doesNotContain("MonitoringReady");
    assertQuiet();
  }

  // ---- helpers

  private void settle() {
    mc.runUntilStable(80);
  }

  private void assertQuiet() {
    PostgresEmulation.assertQuiet(mc, orders::get);
  }

  /**
   * The database pods, their volumes and every Secret are the very same objects (and data) as before, but for the
   * user Secrets' pooler URIs, which are there exactly while the pooler is on.
   */
  private void assertUntouched(
      Map<String, String> pods, Map<String, String> claims, Map<String, JsonNode> secrets) {
    assertThat(uids("v1", "Pod")).as("database pods").isEqualTo(pods);
    assertThat(uids("v1", "PersistentVolumeClaim")).as("volumes").isEqualTo(claims);
    boolean pooler = !names("apps/v1", "Deployment").isEmpty();
    secrets.forEach(
        (name, data) -> {
          com.fasterxml.jackson.databind.node.ObjectNode now = secretData().get(name).deepCopy();
          if (now.has("uri")) {
            assertThat(now.has(Secrets.POOLER_URI))
                .as("%s has pooler URIs while the pooler is on", name)
                .isEqualTo(pooler);
            assertThat(now.has(Secrets.POOLER_JDBC_URI)).isEqualTo(pooler);
          }
          now.remove(List.of(Secrets.POOLER_URI, Secrets.POOLER_JDBC_URI));
          com.fasterxml.jackson.databind.node.ObjectNode before = data.deepCopy();
          before.remove(List.of(Secrets.POOLER_URI, Secrets.POOLER_JDBC_URI));
          assertThat(now).as("Secret %s", name).isEqualTo(before);
        });
  }

  private List<String> conditionTypes() {
    return names(orders.get().at("/status/conditions"), "type");
  }

  private List<String> containerNames() {
    return names(
        cluster.get("apps/v1", "StatefulSet", NS, NAME).at("/spec/template/spec/containers"),
        "name");
  }

  private static List<String> names(JsonNode items, String field) {
    List<String> names = new java.util.ArrayList<>();
    items.forEach(item -> names.add(item.path(field).asText()));
    return names;
  }

  private void assertCondition(String type, String status, String reason) {
    for (JsonNode condition : orders.get().path("status").path("conditions")) {
      if (condition.path("type").asText().equals(type)) {
        assertThat(condition.path("status").asText() + " " + condition.path("reason").asText())
            .as("condition %s: %s", type, condition.path("message").asText())
            .isEqualTo(status + " " + reason);
        return;
      }
    }
    throw new AssertionError("no condition " + type + " in " + orders.get().path("status"));
  }

  /** Database pods (or claims) by name → uid. */
  private Map<String, String> uids(String apiVersion, String kind) {
    Map<String, String> uids = new TreeMap<>();
    cluster.list(apiVersion, kind, NS).stream()
        .filter(o -> !"pgbouncer".equals(o.at("/metadata/labels").path(Labels.NAME).asText()))
        .forEach(o -> uids.put(o.at("/metadata/name").asText(), o.at("/metadata/uid").asText()));
    return uids;
  }

  private String version(String apiVersion, String kind, String name) {
    JsonNode metadata = cluster.get(apiVersion, kind, NS, name).path("metadata");
    return metadata.path("uid").asText() + "@" + metadata.path("resourceVersion").asText();
  }

  private List<String> names(String apiVersion, String kind) {
    return cluster.list(apiVersion, kind, NS).stream()
        .map(o -> o.at("/metadata/name").asText())
        .sorted()
        .toList();
  }

  private Map<String, JsonNode> secretData() {
    Map<String, JsonNode> data = new TreeMap<>();
    cluster
        .list("v1", "Secret", NS)
        .forEach(s -> data.put(s.at("/metadata/name").asText(), s.path("data").deepCopy()));
    return data;
  }

  private String usersJob() {
    return cluster.list("batch/v1", "Job", NS).stream()
        .filter(job -> "users".equals(job.at("/metadata/labels").path(Labels.COMPONENT).asText()))
        .map(job -> job.at("/metadata/name").asText())
        .findFirst()
        .orElse("");
  }

  private void validObjects() {
    for (String[] type :
        List.of(
            new String[] {"apps/v1", "Deployment"},
            new String[] {"v1", "ConfigMap"},
            new String[] {"v1", "Service"},
            new String[] {"policy/v1", "PodDisruptionBudget"},
            new String[] {"apps/v1", "StatefulSet"},
            new String[] {"v1", "Secret"})) {
      cluster.list(type[0], type[1]).forEach(KubeSchema::assertValid);
    }
  }
}
