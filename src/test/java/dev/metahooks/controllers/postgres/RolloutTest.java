package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rollout's decisions from observed state alone, on worlds the scenario tests do not reach. */
class RolloutTest {
  private static final String NEW_REVISION = "orders-5f6b8c9d7a";

  @Test
  void aPrimaryOnTheHighestOrdinalIsSwitchedOverFirstToTheLowestReplica() {
    PostgresWorld world = threeInstances();
    // As the answer that changed the template left it: the partition at the instance count.
    StatefulSets.partition(world.statefulSet(), 3);
    world.runPods(Set.of(), 2, true);
    JsonNode answer = world.sync();
    assertThat(partition(answer)).as("held: nothing updated yet").isEqualTo(3);
    ObjectNode job = switchoverJob(answer);
    assertThat(env(job, "LEADER")).isEqualTo("orders-2");
    assertThat(env(job, "CANDIDATE")).isEqualTo("orders-0");
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("Switchover");

    // Again, with the Job observed (a resync): the same children, the Job now said to run.
    JsonNode again = world.call(false);
    assertThat(again.path("children")).isEqualTo(answer.path("children"));
    assertThat(again.at("/status/rollout/message").asText())
        .isEqualTo("Job " + job.at("/metadata/name").asText() + " (switchover from orders-2 to orders-0) is running");

    // Patroni moved the leader: orders-2 is a replica now and is updated first.
    world.runPods(Set.of(), 0, true);
    answer = world.sync();
    assertThat(partition(answer)).isEqualTo(2);
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
    assertThat(answer.at("/status/rollout/message").asText()).isEqualTo("updating orders-2 (0 of 3 updated)");
  }

  @Test
  void anUnreadyPodHoldsThePartitionWhereItIs() {
    PostgresWorld world = threeInstances();
    StatefulSets.partition(world.statefulSet(), 3);
    world.runPods(Set.of(), 0, true);
    world.sync();
    updated(world, 2);
    world.runPods(Set.of(2), 0, true);
    updated(world, 2);
    JsonNode answer = world.sync();
    assertThat(partition(answer)).isEqualTo(2);
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("Waiting");
    assertThat(answer.at("/status/rollout/message").asText()).contains("orders-2");
  }

  @Test
  void theRestartMethodLeavesTheStatefulSetItsOwnRollingUpdate() {
    PostgresWorld world = threeInstances();
    world.edit(spec -> spec.putObject("updates").put("method", "restart"));
    world.runPods(Set.of(), 0, true);
    JsonNode answer = world.sync();
    assertThat(statefulSet(answer).at("/spec/updateStrategy").toString()).isEqualTo("{\"type\":\"RollingUpdate\"}");
    assertThat(answer.at("/status").has("rollout")).isFalse();
  }

  @Test
  void podsWhosePatroniReportsAPendingRestartAreListed() {
    PostgresWorld world = threeInstances();
    world.runAllReady();
    ((ObjectNode) world.pods.get("orders-1").get("metadata")).putObject("annotations")
        .put("status", "{\"role\":\"replica\",\"state\":\"running\",\"pending_restart\":true}");
    ((ObjectNode) world.pods.get("orders-2").get("metadata")).putObject("annotations").put("status", "not json");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/pendingRestart").toString()).isEqualTo("[\"orders-1\"]");
  }

  private static PostgresWorld threeInstances() {
    PostgresWorld world = new PostgresWorld("orders", (ObjectNode) Json.object().put("instances", 3));
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  /** Marks the pod at {@code ordinal} as running the StatefulSet's update revision. */
  private static void updated(PostgresWorld world, int ordinal) {
    ((ObjectNode) world.pods.get("orders-" + ordinal).get("metadata")).withObjectProperty("labels")
        .put(Rollout.REVISION_LABEL, NEW_REVISION);
  }

  private static JsonNode statefulSet(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals("StatefulSet")) {
        return child;
      }
    }
    throw new AssertionError("no StatefulSet");
  }

  private static int partition(JsonNode answer) {
    return statefulSet(answer).at("/spec/updateStrategy/rollingUpdate/partition").asInt(-1);
  }

  private static List<String> jobNames(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer.path("children").forEach(c -> {
      if (c.path("kind").asText().equals("Job")) {
        names.add(c.at("/metadata/name").asText());
      }
    });
    return names;
  }

  private static ObjectNode switchoverJob(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.at("/metadata/name").asText().startsWith("orders-switchover-")) {
        return (ObjectNode) child;
      }
    }
    throw new AssertionError("no switchover Job in " + jobNames(answer));
  }

  private static String env(JsonNode job, String name) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals(name)) {
        return env.path("value").asText();
      }
    }
    throw new AssertionError("no " + name);
  }
}
