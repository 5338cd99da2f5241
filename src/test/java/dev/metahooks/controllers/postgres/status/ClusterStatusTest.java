package dev.metahooks.controllers.postgres.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.DataProtectionTest;
import dev.metahooks.controllers.postgres.ObservedRequests;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Status a DBA can trust: Degraded follows the pods whatever the hook does with the children. */
class ClusterStatusTest {
  static String condition(JsonNode answer, String type) {
    for (JsonNode condition : answer.path("status").path("conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition.path("status").asText() + " " + condition.path("reason").asText();
      }
    }
    throw new AssertionError("no " + type + " in " + answer.path("status"));
  }

  private static JsonNode withoutPrimary(Consumer<ObservedRequests> change, boolean finalizing) {
    ObservedRequests world = DataProtectionTest.readyHa();
    change.accept(world);
    world.runPods(Set.of(0), -1, false);
    return world.call(finalizing);
  }

  @Test
  void noPrimaryIsDegradedInEveryPhase() {
    JsonNode paused = withoutPrimary(w -> w.edit(spec -> spec.put("paused", true)), false);
    assertThat(paused.at("/status/phase").asText()).isEqualTo("Paused");
    assertThat(condition(paused, "Degraded")).isEqualTo("True NoPrimary");

    JsonNode invalid = withoutPrimary(w -> w.edit(spec -> spec.put("postgresVersion", 16)), false);
    assertThat(invalid.at("/status/phase").asText()).isEqualTo("Invalid");
    assertThat(condition(invalid, "Degraded")).isEqualTo("True NoPrimary");

    JsonNode deleting = withoutPrimary(w -> w.deletionTimestamp = "2026-01-01T00:00:00Z", true);
    assertThat(deleting.at("/status/phase").asText()).isEqualTo("Deleting");
    assertThat(condition(deleting, "Degraded")).isEqualTo("True NoPrimary");

    JsonNode rendered = withoutPrimary(w -> {}, false);
    assertThat(rendered.at("/status/phase").asText()).isEqualTo("Degraded");
    assertThat(condition(rendered, "Degraded")).isEqualTo("True NoPrimary");
  }

  /**
   * Under the restart method Kubernetes restarts the primary's pod too: until Patroni has made a replica primary no
   * pod is, as the rollout planned. The same moment without a roll is Degraded.
   */
  @Test
  void noPrimaryWhileTheStatefulSetRollsThePodsIsPlanned() {
    ObservedRequests world = DataProtectionTest.readyHa();
    world.edit(spec -> spec.putObject("updates").put("method", "restart"));
    world.sync();
    world.runPods(Set.of(0), -1, true);
    JsonNode rolling = world.call(false);
    assertThat(rolling.at("/status/phase").asText()).isEqualTo("Updating");
    assertThat(condition(rolling, "Degraded")).isEqualTo("False Planned");

    world.runPods(Set.of(0), -1, false);
    JsonNode rolled = world.call(false);
    assertThat(rolled.at("/status/phase").asText()).isEqualTo("Degraded");
    assertThat(condition(rolled, "Degraded")).isEqualTo("True NoPrimary");
  }

  @Test
  void aFailedUsersJobIsItsOwnConditionNotTheClustersHealth() {
    ObservedRequests world = DataProtectionTest.readyHa();
    world.finishUsersJob(false);
    JsonNode answer = world.call(false);
    assertThat(answer.at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(condition(answer, "Degraded")).isEqualTo("False AsExpected");
    assertThat(condition(answer, "UsersReady")).isEqualTo("False JobFailed");
  }

  @Test
  void hibernatingSaysSoUntilThePodsAreGone() {
    ObservedRequests world = DataProtectionTest.readyHa();
    world.edit(spec -> spec.put("instances", 0));
    JsonNode stopping = world.sync();
    assertThat(stopping.at("/status/phase").asText()).isEqualTo("Hibernating");
    assertThat(condition(stopping, "Progressing")).isEqualTo("True Hibernating");
    assertThat(condition(stopping, "Ready")).isEqualTo("False Hibernating");
    world.runAllReady();
    JsonNode stopped = world.call(false);
    assertThat(stopped.at("/status/phase").asText()).isEqualTo("Hibernated");
    assertThat(condition(stopped, "Ready")).isEqualTo("False Hibernated");
  }
}
