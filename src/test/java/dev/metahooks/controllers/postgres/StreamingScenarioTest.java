package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.World;
import dev.metahooks.testsupport.Project;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replica that is Ready but has not caught up with the leader (Patroni's status annotation says how far behind it
 * is) holds every step that would lean on it: the next pod of a rollout, a scale-down's switchover, a switchover on
 * request. Once it catches up, each goes on.
 */
class StreamingScenarioTest {
  private static final String NAME = "orders";
  private static final long BEHIND = 64L << 20;

  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;
  private PostgresParent orders;

  /** How far behind the leader each named replica is, as the simulated Patroni publishes it. */
  private final Map<String, Long> lag = new HashMap<>();

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    orders = new PostgresParent(cluster, "default", NAME);
    hooks =
        LocalHooks.start(PostgresClusterController.controller(PostgresEmulation.sources(cluster)));
    mc =
        Metacontroller.forManifests(
            cluster, hooks.baseUrl(), "metacontroller/postgrescluster.yaml");
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .add("patroni", c -> PatroniSimulation.step(c, lag))
            .add("clock", c -> c.advance(PostgresScenarios.ROUND)));
    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    mc.runUntilStable(60);
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  @Test
  void aRolloutWaitsForALaggingReplicaAndNamesItThenGoesOnInOrder() {
    lag.put("orders-1", BEHIND);
    mc.runUntilStable(60);
    long mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark))
        .as("no pod restarts while orders-1 lags")
        .isEmpty();
    JsonNode rollout = orders.get().at("/status/rollout");
    assertThat(rollout.path("step").asText()).isEqualTo("Waiting");
    assertThat(rollout.path("waitingFor").path("member").asText()).isEqualTo("orders-1");
    assertThat(rollout.path("waitingFor").path("lagBytes").asLong()).isEqualTo(BEHIND);
    assertThat(rollout.path("message").asText())
        .contains("orders-1 to catch up with orders-0", "67108864 bytes");

    lag.clear();
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark))
        .containsExactly(
            "replaced orders-2",
            "replaced orders-1",
            "switchover Job",
            "leader orders-1",
            "replaced orders-0");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    PostgresEmulation.assertQuiet(mc, orders::get);
  }

  @Test
  void aScaleDownDoesNotMoveThePrimaryToALaggingReplica() {
    makeLeader("orders-2");
    mc.runUntilStable(60);
    lag.put("orders-0", BEHIND);
    mc.runUntilStable(60);
    long mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("instances", 1));
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark)).isEmpty();
    assertThat(orders.get().at("/status/rollout/waitingFor/member").asText()).isEqualTo("orders-0");
    assertThat(orders.get().at("/status/rollout/message").asText())
        .startsWith(
            "the primary orders-2 runs on an ordinal "
                + "the scale-down removes; waiting for orders-0 to catch up with orders-2");

    lag.clear();
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark))
        .containsExactly(
            "switchover Job", "leader orders-0", "replaced orders-2", "replaced orders-1");
  }

  @Test
  void aSwitchoverOnRequestWaitsUntilItsTargetHasCaughtUp() {
    lag.put("orders-2", BEHIND);
    mc.runUntilStable(60);
    long mark = cluster.lastSequence();
    orders.annotate(ManualSwitchover.ANNOTATION, "orders-2");
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark)).isEmpty();
    assertThat(orders.get().at("/status/switchover/state").asText()).isEqualTo("Waiting");
    assertThat(orders.get().at("/status/switchover/message").asText())
        .isEqualTo(
            "waiting for orders-2 to catch up with orders-0 (67108864 bytes of WAL behind, "
                + "spec.updates.maxLagBytes allows 16777216)");

    lag.clear();
    mc.runUntilStable(60);
    assertThat(PostgresScenarios.podEvents(cluster, NAME, mark))
        .containsExactly("switchover Job", "leader orders-2");
    assertThat(orders.get().at("/status/switchover/state").asText()).isEqualTo("Done");
  }

  private void makeLeader(String pod) {
    for (ObjectNode member : cluster.list("v1", "Pod")) {
      String role =
          member.at("/metadata/name").asText().equals(pod) ? Labels.LEADER : Labels.REPLICA;
      ((ObjectNode) member.get("metadata")).withObjectProperty("labels").put(Labels.ROLE, role);
      cluster.update(member);
    }
  }
}
