package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.jobs.UsersJobs;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.World;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.Project;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Databases example of docs/postgrescluster/spec.md under the emulated Metacontroller with the real manifest, and
 * each users Job the hook emits run for real: the emulator's world hands the Job's container (as the kubelet
 * starts it, with the cluster's Secrets) to a PostgreSQL of this test's own, and the Job completes or fails as
 * psql exits. Status follows: Applied, a missing extension Failed (the cluster stays Ready), the fix applied, a
 * removed entry dropped only under reclaimPolicy Delete.
 */
class DatabasesEmulatorScenarioIT {
  private static final String API = "metahooks.dev/v1alpha1";
  private static final String KIND = "PostgresCluster";
  private static final String NS = "shop";

  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;
  private PostgresServer server;
  private final Set<String> ran = new HashSet<>();

  @BeforeEach
  void setUp() {
    server = PostgresServer.startNew();
    cluster = Project.cluster();
    hooks =
        LocalHooks.start(
            PostgresClusterController.controller(PostgresEmulation.fixedSecrets(cluster)));
    mc =
        Metacontroller.forManifests(
            cluster, hooks.baseUrl(), "metacontroller/postgrescluster.yaml");
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .workloadsReady(false)
            .add("patroni", PatroniSimulation::step)
            .add("users-job", this::runUsersJobs)
            .add("clock", c -> c.advance(Duration.ofSeconds(10))));
  }

  @AfterEach
  void tearDown() {
    hooks.close();
    server.stop();
  }

  @Test
  void theDocsExampleIsAppliedAFailureIsReportedAndARemovedEntryFollowsItsPolicy()
      throws Exception {
    cluster.create(docsExample());
    mc.runUntilStable(60);
    ObjectNode parent = parent();
    assertThat(parent.at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(parent.at("/status/databases"))
        .isEqualTo(
            json(
                "["
                    + "{\"name\":\"orders\",\"owner\":\"orders-app\",\"reclaimPolicy\":\"Retain\",\"state\":\"Applied\"},"
                    + "{\"name\":\"orders archive\",\"owner\":\"orders-app\",\"reclaimPolicy\":\"Delete\",\"state\":\"Applied\"}]"));
    assertThat(condition(parent, "UsersReady")).isEqualTo("True Applied");
    assertThat(databases()).containsExactly("orders", "orders archive");
    assertThat(
            server
                .query(
                    "orders",
                    "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension"
                        + " WHERE extname <> 'plpgsql'")
                .strip())
        .isEqualTo("pg_trgm,pgcrypto");
    assertThat(
            server
                .query(
                    "orders",
                    "SELECT string_agg(nspname || '=' || pg_get_userbyid(nspowner), ',' ORDER BY nspname)"
                        + " FROM pg_namespace WHERE nspname IN ('billing', 'audit')")
                .strip())
        .isEqualTo("audit=orders-app,billing=orders-app");
    PostgresEmulation.assertQuiet(mc, this::parent);

    // An extension the server does not have: the new Job fails, nothing changes, the cluster is not
    // Degraded.
    String catalogue = catalogue();
    cluster.update(
        API,
        KIND,
        NS,
        "orders",
        p -> ((ArrayNode) p.at("/spec/databases/0/extensions")).add("no_such_extension"));
    mc.runUntilStable(60);
    parent = parent();
    assertThat(parent.at("/status/databases/0/state").asText()).isEqualTo("Failed");
    assertThat(condition(parent, "UsersReady")).isEqualTo("False JobFailed");
    assertThat(condition(parent, "Degraded")).isEqualTo("False AsExpected");
    assertThat(parent.at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(catalogue()).isEqualTo(catalogue);

    // Fixed, and the archive's entry removed: it goes (Delete); then orders' entry removed: it
    // stays (Retain).
    server.query(
        "orders", "CREATE TABLE billing.invoice (id int); INSERT INTO billing.invoice VALUES (7)");
    cluster.update(
        API,
        KIND,
        NS,
        "orders",
        p -> {
          ((ArrayNode) p.at("/spec/databases/0/extensions")).remove(2);
          ((ArrayNode) p.at("/spec/databases")).remove(1);
          ((ObjectNode) p.at("/spec/users/1")).remove("connect");
        });
    mc.runUntilStable(60);
    assertThat(parent().at("/status/databases"))
        .isEqualTo(
            json(
                "[{\"name\":\"orders\",\"owner\":\"orders-app\",\"reclaimPolicy\":\"Retain\",\"state\":\"Applied\"}]"));
    assertThat(databases()).containsExactly("orders");
    cluster.update(API, KIND, NS, "orders", p -> ((ObjectNode) p.get("spec")).remove("databases"));
    mc.runUntilStable(60);
    assertThat(parent().path("status").has("databases")).isFalse();
    assertThat(condition(parent(), "UsersReady")).isEqualTo("True Applied");
    assertThat(databases()).containsExactly("orders");
    assertThat(server.query("orders", "SELECT id FROM billing.invoice").strip()).isEqualTo("7");
    PostgresEmulation.assertQuiet(mc, this::parent);
  }

  /** The world's step: every users Job not run yet runs against the server, and finishes as psql exits. */
  private void runUsersJobs(Cluster c) {
    for (ObjectNode job : c.list("batch/v1", "Job", NS)) {
      String name = job.at("/metadata/name").asText();
      if (!name.startsWith("orders-users-") || !ran.add(name)) {
        continue;
      }
      List<ObjectNode> secrets = c.list("v1", "Secret", NS);
      Kubelet.Container container = RenderedContainers.of(job, UsersJobs.CONTAINER, secrets);
      Map<String, String> overrides =
          Map.of(
              "PGHOST",
              "127.0.0.1",
              "PGPORT",
              String.valueOf(server.port()),
              "PGPASSWORD",
              server.superuserPassword(),
              "PATH",
              server.bin() + ":" + System.getenv("PATH"));
      boolean succeeded =
          RenderedContainers.run(container, overrides, Duration.ofMinutes(2)).exitCode() == 0;
      ObjectNode status = Json.object().put(succeeded ? "succeeded" : "failed", 1);
      status
          .putArray("conditions")
          .addObject()
          .put("type", succeeded ? "Complete" : "Failed")
          .put("status", "True");
      job.set("status", status);
      c.updateStatus(job);
    }
  }

  private ObjectNode parent() {
    return cluster.get(API, KIND, NS, "orders");
  }

  private List<String> databases() {
    return List.of(
        server
            .query(
                "SELECT string_agg(datname, E'\\n' ORDER BY datname) FROM pg_database"
                    + " WHERE datname LIKE 'orders%'")
            .strip()
            .split("\n"));
  }

  private String catalogue() {
    return server.query(
            "SELECT string_agg(datname || coalesce(datacl::text, '') || coalesce(shobj_description(oid,"
                + " 'pg_database'), ''), E'\\n' ORDER BY datname) FROM pg_database")
        + server.query(
            "SELECT string_agg(rolname || rolcanlogin, ',' ORDER BY rolname) FROM pg_roles")
        + server.query(
            "orders", "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension");
  }

  /** The first yaml block of the Databases section of docs/postgrescluster/spec.md. */
  static String docsExample() {
    return MarkdownBlocks.first("docs/postgrescluster/spec.md", "Databases", "yaml");
  }

  private static String condition(JsonNode parent, String type) {
    for (JsonNode condition : parent.path("status").path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("status").asText() + " " + condition.path("reason").asText();
      }
    }
    return "absent";
  }
}
