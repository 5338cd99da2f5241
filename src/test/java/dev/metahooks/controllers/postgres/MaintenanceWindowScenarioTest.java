package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Sources;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.HookCall;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Round;
import dev.metahooks.testsupport.Project;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rollout under {@code updates.maintenanceWindows}, end to end: the real manifest and hook server (with its
 * response cache, as deployed) under the emulated Metacontroller, the StatefulSet running pods and Patroni labelling
 * the leader. The hooks' clock is the cluster's, which moves ten seconds a round, and jumps when the test says.
 */
class MaintenanceWindowScenarioTest {
  private static final String KIND = "PostgresCluster";
  private static final String NS = "default";
  private static final String NAME = "orders";

  /** The clock starts on Thursday 2026-01-01; the window is Saturdays 01:00 to 03:00 UTC. */
  private static final Instant OPENS = Instant.parse("2026-01-03T01:00:00Z");

  private Cluster cluster;
  private PostgresParent orders;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    orders = new PostgresParent(cluster, NS, NAME);
    Sources sources = PostgresEmulation.fixedSecrets(cluster);
    hooks = LocalHooks.start(PostgresClusterController.controller(sources));
    mc = PostgresScenarios.haSample(cluster, hooks);
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  @Test
  void theReplicasAreUpdatedAtOnceAndTheSwitchoverWaitsForTheWindowThatOpensLater() {
    long mark = cluster.lastSequence();
    orders.edit(
        spec -> {
          spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4");
          spec.putObject("updates")
              .putArray("maintenanceWindows")
              .addObject()
              .put("start", "01:00")
              .put("end", "03:00")
              .putArray("days")
              .add("Sat");
        });
    mc.runUntilStable(60);

    // Thursday: the replicas are updated, the primary keeps running the old image, and the status
    // says until when.
    assertThat(podEvents(mark)).containsExactly("replaced orders-2", "replaced orders-1");
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Updating");
    assertThat(status.at("/rollout/step").asText()).isEqualTo("WaitingForWindow");
    assertThat(status.at("/rollout/waitingUntil").asText()).isEqualTo(OPENS.toString());
    assertThat(status.at("/rollout/message").asText())
        .isEqualTo(
            "the switchover from orders-0 to orders-1 waits for "
                + "the maintenance window that opens at "
                + OPENS);
    assertThat(orders.condition("Progressing").path("reason").asText())
        .isEqualTo("WaitingForMaintenanceWindow");
    assertThat(orders.condition("Degraded").path("status").asText()).isEqualTo("False");
    assertThat(status.path("primary").asText()).isEqualTo("orders-0");
    double resync = mc.resyncAfterSeconds().get(KIND + " " + NS + "/" + NAME);
    assertThat(cluster.now().plusSeconds((long) resync))
        .as("the hook asks to be called when the window opens")
        .isEqualTo(OPENS);
    HookCall waiting = mc.lastCall("postgrescluster", "sync");
    Round quiet = mc.round();
    assertThat(quiet.writes()).as("nothing moves while the window is closed").isEmpty();

    // Saturday 01:00: Metacontroller comes back, with the very request bytes it sent before, and
    // the rollout goes on.
    cluster.advance(Duration.between(cluster.now(), OPENS));
    long opened = cluster.lastSequence();
    mc.runUntilStable(60);
    // The first call once the window is open: under v4.17.2 nothing syncs the parent in the quiet
    // round, under
    // intended every round does, so the quiet round is left out by number, not by the absence of
    // calls.
    HookCall first =
        mc.calls("postgrescluster", "sync").stream()
            .filter(call -> call.round() > quiet.number())
            .findFirst()
            .orElseThrow();
    assertThat(first.request())
        .as("the same world as before the window opened")
        .isEqualTo(waiting.request());
    assertThat(first.responseJson().at("/status/rollout/step").asText())
        .as("not the cached waiting answer")
        .isEqualTo("Switchover");
    assertThat(podEvents(opened))
        .containsExactly("switchover Job", "leader orders-1", "replaced orders-0");
    status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.has("rollout")).isFalse();
    assertThat(status.path("primary").asText()).isEqualTo("orders-1");
    assertThat(status.path("image").asText()).isEqualTo("ghcr.io/zalando/spilo-17:4.0-p4");
    assertThat(mc.round().writes()).isEmpty();
  }

  private List<String> podEvents(long sequence) {
    return PostgresScenarios.podEvents(cluster, NAME, sequence);
  }
}
