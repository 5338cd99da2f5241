package dev.metahooks.controllers.postgres.plan;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static dev.metahooks.testsupport.JsonLiteral.sameJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.PatroniMemberData;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.docs.MarkdownBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rollout's decisions from observed state alone, on worlds the scenario tests do not reach. */
class RolloutTest {
  private static final String NEW_REVISION = "orders-5f6b8c9d7a";

  @Test
  void aPrimaryOnTheHighestOrdinalStaysUntilTheReplicasBelowItAreUpdated() {
    ObservedRequests world = threeInstances();
    world.runPods(Set.of(), 2, true);
    JsonNode answer = world.sync();
    assertThat(statefulSet(answer).at("/spec/updateStrategy"))
        .isEqualTo(json("{\"type\":\"OnDelete\"}"));
    assertThat(restarted(answer)).as("the highest replica, not the primary").isEqualTo("orders-1");
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
    ObjectNode job = restartJob(answer);
    String uid = world.pods.get("orders-1").at("/metadata/uid").asText();
    assertThat(Rollout.jobEnv(job, Rollout.Restart.UID)).isEqualTo(uid);
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "restarting orders-1 (0 of 3 updated): Job "
                + job.at("/metadata/name").asText()
                + " is starting");
    assertThat(role(answer).at("/rules"))
        .isEqualTo(
            json(
                "[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[\"orders-1\"],\"verbs\":[\"delete\"]}]"));

    // Again, with the Job observed (a resync): the same children, the Job now said to run.
    JsonNode again = world.call(false);
    assertThat(again.path("children")).isEqualTo(answer.path("children"));
    assertThat(again.at("/status/rollout/message").asText()).endsWith(" is running");

    // The Job deleted it and the StatefulSet controller started it from the new template: orders-0
    // is next.
    world.pods.remove("orders-1");
    JsonNode away = world.call(false);
    assertThat(restarted(away)).as("the Job stays while its pod is away").isEqualTo("orders-1");
    assertThat(Rollout.jobEnv(restartJob(away), Rollout.Restart.UID))
        .as("with the uid it was rendered with")
        .isEqualTo(uid);
    world.runPods(Set.of(), 2, true);
    updated(world, 1);
    answer = world.sync();
    assertThat(restarted(answer)).isEqualTo("orders-0");

    // Both replicas updated: one switchover, to an updated replica (the lowest), and then the old
    // primary.
    updated(world, 0);
    answer = world.sync();
    assertThat(restarted(answer)).isEmpty();
    assertThat(env(switchoverJob(answer), "LEADER")).isEqualTo("orders-2");
    assertThat(env(switchoverJob(answer), "CANDIDATE")).isEqualTo("orders-0");
    // Patroni answered (the Job completed) and moved the leader: the old primary restarts, as a
    // replica.
    world.children.entrySet().stream()
        .filter(e -> e.getKey().startsWith("Job/orders-switchover-"))
        .forEach(
            e ->
                e.getValue()
                    .putObject("status")
                    .put("succeeded", 1)
                    .putArray("conditions")
                    .addObject()
                    .put("type", "Complete")
                    .put("status", "True"));
    world.runPods(Set.of(), 0, true);
    updated(world, 0);
    updated(world, 1);
    answer = world.sync();
    assertThat(restarted(answer)).isEqualTo("orders-2");
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
  }

  /** A replica that turns unready while the switchover Job runs: the Job stays in the answer (else it is deleted). */
  @Test
  void aRunningSwitchoverJobIsFollowedWhileAReplicaIsNotReady() {
    ObservedRequests world = threeInstances();
    replicasUpdated(world);
    JsonNode answer = world.sync();
    String job = switchoverJob(answer).at("/metadata/name").asText();
    world.runPods(Set.of(2), 0, true);
    updated(world, 1);
    updated(world, 2);
    JsonNode during = world.sync();
    assertThat(jobNames(during)).contains(job);
    assertThat(during.at("/status/rollout/step").asText()).isEqualTo("Switchover");
    assertThat(during.at("/status/rollout/message").asText()).endsWith("is running");
  }

  @Test
  void anUnreadyPodHoldsTheRollout() {
    ObservedRequests world = threeInstances();
    world.runPods(Set.of(2), 0, true);
    updated(world, 2);
    JsonNode answer = world.sync();
    assertThat(restarted(answer)).isEmpty();
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("Waiting");
    assertThat(answer.at("/status/rollout/message").asText()).contains("orders-2");
  }

  @Test
  void aRestartJobThatFailsStopsTheRolloutUntilItIsDeleted() {
    ObservedRequests world = threeInstances();
    world.runPods(Set.of(), 0, true);
    world.sync();
    ObjectNode job =
        world.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/orders-restart-"))
            .map(java.util.Map.Entry::getValue)
            .findFirst()
            .orElseThrow();
    job.putObject("status")
        .put("failed", 7)
        .putArray("conditions")
        .addObject()
        .put("type", "Failed")
        .put("status", "True")
        .put("reason", "BackoffLimitExceeded");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("RestartFailed");
    assertThat(condition(answer, "Progressing").path("status").asText()).isEqualTo("False");
    assertThat(condition(answer, "Progressing").path("message").asText())
        .contains(
            "could not delete the pod orders-2",
            "BackoffLimitExceeded",
            "delete the Job to try again");
    assertThat(restarted(answer))
        .as("the failed Job is kept, nothing else restarts")
        .isEqualTo("orders-2");
  }

  /** A switchover on request that runs holds the rollout's next restart; the rollout goes on once the leader moved. */
  @Test
  void aSwitchoverOnRequestThatRunsHoldsTheNextRestart() {
    ObservedRequests world = threeInstances();
    world.annotations.put(ManualSwitchover.ANNOTATION, "orders-2");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Running");
    String job =
        jobNames(answer).stream()
            .filter(name -> name.contains("-switchover-"))
            .findFirst()
            .orElseThrow();

    world.runPods(Set.of(), 0, true);
    answer = world.sync();
    assertThat(restarted(answer)).isEmpty();
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "waiting for the switchover asked for (Job " + job + ") to end before the next step");
    assertThat(jobNames(answer)).contains(job);

    world.runPods(Set.of(), 2, true);
    answer = world.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Done");
    assertThat(restarted(answer)).as("the highest replica").isEqualTo("orders-1");
  }

  /** Nor does a scale-down go on beside it: its candidate may be a pod the scale-down removes. */
  @Test
  void aSwitchoverOnRequestThatRunsHoldsAScaleDown() {
    ObservedRequests world = threeInstances();
    world.annotations.put(ManualSwitchover.ANNOTATION, "orders-2");
    String job =
        jobNames(world.sync()).stream()
            .filter(name -> name.contains("-switchover-"))
            .findFirst()
            .orElseThrow();
    world.edit(spec -> spec.put("instances", 2));
    JsonNode answer = world.sync();
    assertThat(statefulSet(answer).at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "waiting for the switchover asked for (Job "
                + job
                + ") to end before scaling down from 3 to 2");
    assertThat(condition(answer, "Progressing").path("reason").asText())
        .isEqualTo("WaitingForSwitchoverBeforeScaleDown");
    assertThat(jobNames(answer))
        .filteredOn(name -> name.contains("-switchover-"))
        .containsExactly(job);

    // Done: the scale-down goes on, and moves the leader off orders-2, which it removes, before the
    // replicas shrink.
    world.runPods(Set.of(), 2, false);
    answer = world.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Done");
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("ScaleDownSwitchover");
    assertThat(condition(answer, "Progressing").path("reason").asText())
        .isEqualTo("MovingPrimaryBeforeScaleDown");
    assertThat(jobNames(answer))
        .filteredOn(name -> name.contains("-switchover-"))
        .doesNotContain(job)
        .hasSize(1);
    assertThat(statefulSet(answer).at("/spec/replicas").asInt()).isEqualTo(3);
  }

  @Test
  void theRestartMethodLeavesTheStatefulSetItsOwnRollingUpdate() {
    ObservedRequests world = threeInstances();
    world.edit(spec -> spec.putObject("updates").put("method", "restart"));
    world.runPods(Set.of(), 0, true);
    JsonNode answer = world.sync();
    assertThat(statefulSet(answer).at("/spec/updateStrategy"))
        .isEqualTo(json("{\"type\":\"RollingUpdate\"}"));
    assertThat(answer.at("/status").has("rollout")).isFalse();
  }

  @Test
  void podsWhosePatroniReportsAPendingRestartAreListed() {
    ObservedRequests world = threeInstances();
    world.runAllReady();
    ((ObjectNode) world.pods.get("orders-1").get("metadata"))
        .putObject("annotations")
        .put("status", "{\"role\":\"replica\",\"state\":\"running\",\"pending_restart\":true}");
    ((ObjectNode) world.pods.get("orders-2").get("metadata"))
        .putObject("annotations")
        .put("status", "not json");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/pendingRestart")).isEqualTo(json("[\"orders-1\"]"));
  }

  @Test
  void outsideTheMaintenanceWindowTheReplicasAreUpdatedAndTheSwitchoverWaitsForTheWindow() {
    ObservedRequests world = threeInstances();
    // Saturdays 01:00 to 03:00; the world's clock says Thursday 2026-01-01 00:00.
    world.edit(
        spec ->
            spec.putObject("updates")
                .putArray("maintenanceWindows")
                .addObject()
                .put("start", "01:00")
                .put("end", "03:00")
                .putArray("days")
                .add("Sat"));
    replicasUpdated(world);
    JsonNode answer = world.sync();
    assertThat(restarted(answer)).as("the primary is not restarted").isEmpty();
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("WaitingForWindow");
    assertThat(answer.at("/status/rollout/waitingUntil").asText())
        .isEqualTo("2026-01-03T01:00:00Z");
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "the switchover from orders-0 to orders-1 waits for the maintenance window that opens at 2026-01-03T01:00:00Z");
    assertThat(answer.path("resyncAfterSeconds").asDouble())
        .as("two days and an hour")
        .isEqualTo(176400.0);
    assertThat(condition(answer, "Progressing").path("reason").asText())
        .isEqualTo("WaitingForMaintenanceWindow");

    // The same world when the window has opened: the switchover Job, and no more resync asked for.
    world.sources = at("2026-01-03T01:00:00Z");
    answer = world.call(false);
    assertThat(env(switchoverJob(answer), "CANDIDATE")).isEqualTo("orders-1");
    assertThat(answer.has("resyncAfterSeconds")).isFalse();

    // A switchover Job already there is followed when the window has closed again.
    world.apply(answer);
    world.sources = at("2026-01-03T03:00:00Z");
    assertThat(world.call(false).at("/status/rollout/step").asText()).isEqualTo("Switchover");
  }

  @Test
  void aSingleInstanceRestartsOnlyInsideAWindow() {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 1));
    world.edit(
        spec ->
            spec.putObject("updates")
                .putArray("maintenanceWindows")
                .addObject()
                .put("start", "22:00")
                .put("end", "02:00"));
    world.sync();
    world.runAllReady();
    world.sync();
    world.runPods(Set.of(), 0, true);
    world.sources = at("2026-01-01T12:00:00Z");
    JsonNode answer = world.sync();
    assertThat(restarted(answer)).isEmpty();
    assertThat(answer.at("/status/rollout/message").asText())
        .startsWith("the restart of the primary orders-0");
    assertThat(answer.at("/status/rollout/waitingUntil").asText())
        .isEqualTo("2026-01-01T22:00:00Z");
    world.sources = at("2026-01-02T01:59:00Z");
    assertThat(restarted(world.sync())).isEqualTo("orders-0");
  }

  @Test
  void underSynchronousReplicationTheSwitchoverGoesToTheSynchronousStandby() {
    ObservedRequests world = threeInstances();
    world.patroniConfigMap("sync");
    ((ObjectNode) world.configMaps.get("orders-sync").get("metadata"))
        .putObject("annotations")
        .put("leader", "orders-0")
        .put("sync_standby", "orders-2");
    replicasUpdated(world);
    assertThat(env(switchoverJob(world.sync()), "CANDIDATE"))
        .as("not the lowest updated replica")
        .isEqualTo("orders-2");

    // A synchronous standby that is not ready: Patroni would refuse any other, so the rollout
    // waits.
    world.runPods(Set.of(), 0, true);
    updated(world, 1);
    updated(world, 2);
    world.children.keySet().removeIf(key -> key.startsWith("Job/orders-switchover-"));
    ((ObjectNode) world.configMaps.get("orders-sync").get("metadata"))
        .withObjectProperty("annotations")
        .put("sync_standby", "orders-7");
    JsonNode answer = world.sync();
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "no ready updated synchronous standby to switch over to (Patroni names orders-7)");
  }

  @Test
  void aReadyReplicaThatHasNotCaughtUpHoldsTheNextStepAndTheStatusNamesItsLag() {
    ObservedRequests world = threeInstances();
    world.runPods(Set.of(), 0, true);
    updated(world, 2);
    // orders-2 is back and Ready, but 64 MiB behind the leader: orders-1 is not restarted yet.
    lagging(world, "orders-2", 64L << 20);
    JsonNode answer = world.sync();
    assertThat(restarted(answer)).isEmpty();
    assertThat(answer.at("/status/rollout/step").asText()).isEqualTo("Waiting");
    assertThat(answer.at("/status/rollout/message").asText())
        .isEqualTo(
            "waiting for orders-2 to catch up with "
                + "orders-0 (67108864 bytes of WAL behind, spec.updates.maxLagBytes allows 16777216) before the next step");
    assertThat(answer.at("/status/rollout/waitingFor"))
        .usingComparator(sameJson())
        .isEqualTo(json("{\"member\":\"orders-2\",\"leader\":\"orders-0\",\"lagBytes\":67108864}"));

    // A larger bound lets it go on.
    world.edit(spec -> spec.putObject("updates").put("maxLagBytes", 128L << 20));
    assertThat(restarted(world.sync())).isEqualTo("orders-1");
  }

  @Test
  void theDocsBoundLetsAReplicaWithinItGoOn() throws Exception {
    String yaml =
        MarkdownBlocks.blocks("docs/postgrescluster/upgrades.md", "Upgrades", "yaml").stream()
            .filter(b -> b.contains("maxLagBytes"))
            .findFirst()
            .orElseThrow();
    JsonNode updates = dev.metahooks.testsupport.Manifests.parse(yaml).get(0).at("/spec/updates");
    ObservedRequests world = threeInstances();
    world.edit(spec -> spec.set("updates", updates));
    world.runPods(Set.of(), 0, true);
    updated(world, 2);
    lagging(world, "orders-2", updates.path("maxLagBytes").asLong() + 1);
    assertThat(world.call(false).at("/status/rollout/waitingFor/member").asText())
        .isEqualTo("orders-2");
    lagging(world, "orders-2", updates.path("maxLagBytes").asLong());
    assertThat(restarted(world.call(false))).isEqualTo("orders-1");
  }

  @Test
  void noSwitchoverJobStartsWhileTheCandidateIsNotStreaming() {
    ObservedRequests world = threeInstances();
    replicasUpdated(world);
    String streaming =
        PatroniMemberData.replica(
            PatroniMemberData.Version.V4_0_4,
            "10.244.1.21",
            PatroniMemberData.POSITION,
            1,
            null); // runs, replication_state absent: not streaming
    ((ObjectNode) world.pods.get("orders-1").get("metadata"))
        .withObjectProperty("annotations")
        .put("status", streaming);
    JsonNode answer = world.sync();
    assertThat(jobNames(answer)).noneMatch(name -> name.contains("-switchover-"));
    assertThat(answer.at("/status/rollout/waitingFor/member").asText()).isEqualTo("orders-1");
    assertThat(answer.at("/status/rollout/message").asText())
        .contains("not streaming: replication_state absent");

    // Streaming again: the Job to the updated replica.
    lagging(world, "orders-1", 0);
    assertThat(env(switchoverJob(world.sync()), "CANDIDATE")).isEqualTo("orders-1");
  }

  /** The replica's status annotation as Patroni 4.0.4 writes it, {@code bytes} behind the leader. */
  private static void lagging(ObservedRequests world, String pod, long bytes) {
    int ordinal = Integer.parseInt(pod.substring(pod.lastIndexOf('-') + 1));
    ((ObjectNode) world.pods.get(pod).get("metadata"))
        .withObjectProperty("annotations")
        .put(
            "status",
            PatroniMemberData.replica(
                PatroniMemberData.Version.V4_0_4,
                "10.244.1." + (20 + ordinal),
                PatroniMemberData.POSITION - bytes,
                1,
                "streaming"));
  }

  /** The rollout has updated both replicas of a three-instance cluster; orders-0, the primary, is next. */
  private static void replicasUpdated(ObservedRequests world) {
    world.runPods(Set.of(), 0, true);
    updated(world, 1);
    updated(world, 2);
  }

  private static dev.metahooks.api.Sources at(String time) {
    java.time.Instant now = java.time.Instant.parse(time);
    return new dev.metahooks.api.Sources() {
      @Override
      public java.time.Instant now() {
        return now;
      }

      @Override
      public String secret(String purpose, int length) {
        return dev.metahooks.testing.FixedSources.INSTANCE.secret(purpose, length);
      }
    };
  }

  private static JsonNode condition(JsonNode answer, String type) {
    for (JsonNode condition : answer.at("/status/conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition;
      }
    }
    throw new AssertionError("no condition " + type);
  }

  private static ObservedRequests threeInstances() {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 3));
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  /** Marks the pod at {@code ordinal} as running the StatefulSet's update revision. */
  private static void updated(ObservedRequests world, int ordinal) {
    ((ObjectNode) world.pods.get("orders-" + ordinal).get("metadata"))
        .withObjectProperty("labels")
        .put(ObservedCluster.REVISION_LABEL, NEW_REVISION);
  }

  private static JsonNode statefulSet(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals("StatefulSet")) {
        return child;
      }
    }
    throw new AssertionError("no StatefulSet");
  }

  /** The pod the answer's restart Job deletes, or "" without one. */
  private static String restarted(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.at("/metadata/name").asText().startsWith("orders-restart-")
          && child.path("kind").asText().equals("Job")) {
        return Rollout.jobEnv(child, Rollout.Restart.POD);
      }
    }
    return "";
  }

  private static ObjectNode restartJob(JsonNode answer) {
    return (ObjectNode) child(answer, "Job", "orders-restart-");
  }

  private static JsonNode role(JsonNode answer) {
    return child(answer, "Role", "orders-restart");
  }

  private static JsonNode child(JsonNode answer, String kind, String namePrefix) {
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals(kind)
          && child.at("/metadata/name").asText().startsWith(namePrefix)) {
        return child;
      }
    }
    throw new AssertionError("no " + kind + " " + namePrefix + "* in the answer");
  }

  private static List<String> jobNames(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer
        .path("children")
        .forEach(
            c -> {
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
