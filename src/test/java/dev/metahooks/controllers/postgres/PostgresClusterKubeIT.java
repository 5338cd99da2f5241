package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.emulator.ApiException;
import dev.metahooks.emulator.Write;
import dev.metahooks.testing.OnKubeApiServer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLockTarget;

/**
 * {@link PostgresClusterScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the
 * store; Patroni is the same simulation, writing to the server. Where the server answers before any hook (the CRD's
 * CEL rules), the scenario says what it answers; where the scenario needs the nodes to be as slow as real ones (a
 * Pod not Ready at once), it asks them to be.
 */
@ExtendWith(OnKubeApiServer.class)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(
    value = PostgresClusterKubeIT.SIMULATED_PATRONI_TIMING,
    mode = ResourceAccessMode.READ,
    target = ResourceLockTarget.CHILDREN)
class PostgresClusterKubeIT extends PostgresClusterScenarioTest {
  /** Held alone by the one scenario whose outcome depends on how soon the simulated Patroni acts. */
  static final String SIMULATED_PATRONI_TIMING = "simulated-patroni-timing";

  /** KWOK's annotation that holds a Pod's readiness back (controlplane/stages.yaml, pod-ready-after-delay). */
  private static final String READINESS_DELAY = "pod-ready.stage.kwok.x-k8s.io/delay";

  /**
   * The scenario as in memory, but the Job controller decides: the simulation only ends the switchover Job's Pods
   * with exit code 1, as Patroni's 412 ends the script; two of them (backoffLimit 1 allows one retry), and the Job's
   * {@code Failed} condition is the controller's.
   */
  @Override
  @Test
  void aSwitchoverJobThatFailsStopsTheRolloutBeforeThePrimaryUntilItIsDeleted() {
    long mark = cluster.lastSequence();
    super.aSwitchoverJobThatFailsStopsTheRolloutBeforeThePrimaryUntilItIsDeleted();

    List<Write> writes = cluster.writesAfter(mark);
    assertThat(writes)
        .filteredOn(write -> write.object().startsWith("Pod ") && madeFailed(write))
        .extracting(Write::actor)
        .containsExactly("world/patroni", "world/patroni");
    assertThat(writes)
        .filteredOn(write -> write.object().startsWith("Job ") && madeFailed(write))
        .singleElement()
        .satisfies(
            write -> {
              assertThat(write.actor()).startsWith("kubernetes/");
              assertThat(write.after().at("/status/failed").asInt()).isEqualTo(2);
              assertThat(write.after().path("status").toString())
                  .contains("\"reason\":\"BackoffLimitExceeded\"");
            });
  }

  /** The CRD's transition rules refuse each change before any hook sees it: nothing moves. */
  @Override
  @Test
  void aChangeTheClusterCannotTakeFreezesEveryChildUntilReverted() {
    for (FrozenChange frozen : FROZEN_CHANGES) {
      refusedByTheCrd(frozen.ruleAt(), frozen.rule(), frozen.change());
    }
  }

  /** The CRD's rule refuses the label before any hook sees it (the hook's check is the second line). */
  @Override
  @Test
  void aPodLabelTheOperatorSelectsByIsRefusedAndMovesNothing() {
    refusedByTheCrd(
        "spec.scheduling.database.podLabels", SELECTED_POD_LABEL_RULE, SELECTED_POD_LABEL);
  }

  /** The CRD's rule refuses the WAL volume before any hook sees it (the hook's check is the second line). */
  @Override
  @Test
  void aWalVolumeAddedToAClusterThatExistsIsRefusedAndMovesNothing() {
    refusedByTheCrd("spec.storage", WAL_ADDED_RULE, WAL_ADDED);
  }

  /**
   * A real node reports a database Pod Ready only once Patroni's readiness probe passes, not as it starts: the pods
   * carry the annotation that has KWOK wait three seconds, so the StatefulSet controller replaces one Pod at a time and
   * Patroni sees the leader go while the replicas run. Set with the method, in one change (one roll). The simulated
   * Patroni acts between world steps, not at once as the real one: it runs with no other scenario of the class beside
   * it, so that a step ends within those seconds (else the new primary's pod could be Ready before any replica leads).
   */
  @Override
  @Test
  @ResourceLock(SIMULATED_PATRONI_TIMING)
  void underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover() {
    orders.edit(
        spec -> {
          spec.putObject("updates").put("method", "restart");
          spec.withObjectProperty("scheduling")
              .withObjectProperty("database")
              .withObjectProperty("podAnnotations")
              .put(READINESS_DELAY, "3s");
        });
    settle();
    super.underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover();
  }

  /** Whether this write made a Pod's phase, or a Job's condition, {@code Failed}. */
  private static boolean madeFailed(Write write) {
    return write.before() != null
        && write.after() != null
        && failed(write.after())
        && !failed(write.before());
  }

  private static boolean failed(JsonNode object) {
    return "Failed".equals(object.at("/status/phase").asText()) || JobConditions.failed(object);
  }

  /**
   * The CRD's rule refuses {@code change} with 422 and its message, naming {@code field}, before any hook sees it:
   * the object, its children and its status stay as they were, and the cluster stays valid and ready.
   */
  private void refusedByTheCrd(String field, String rule, Consumer<ObjectNode> change) {
    ObjectNode before = orders.get();
    Map<String, String> children = childVersions();

    assertThatThrownBy(() -> orders.edit(change))
        .isInstanceOfSatisfying(
            ApiException.class,
            refused -> assertThat(refused.reason()).isEqualTo(ApiException.Reason.INVALID))
        .hasMessageContaining(field)
        .hasMessageContaining(rule);
    settle();

    ObjectNode after = orders.get();
    assertThat(after.at("/metadata/generation")).isEqualTo(before.at("/metadata/generation"));
    assertThat(after.path("spec")).isEqualTo(before.path("spec"));
    assertThat(after.path("status"))
        .as("the status stays as it was")
        .isEqualTo(before.path("status"));
    assertThat(childVersions()).as("no child moves").isEqualTo(children);
    assertCondition("SpecValid", "True", "Valid");
    assertCondition("Ready", "True", "AllInstancesReady");
    assertQuiet();
  }
}
