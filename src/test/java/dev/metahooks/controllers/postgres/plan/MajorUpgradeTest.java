package dev.metahooks.controllers.postgres.plan;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.PatroniMemberData;
import dev.metahooks.controllers.postgres.StandbyClusterTest;
import dev.metahooks.controllers.postgres.TlsWorlds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What one sync decides for a {@code postgresVersion} increase: what it waits for, the upgrade Job and its exec right,
 * the version the StatefulSet renders after each end of the Job, and the changes it refuses.
 */
class MajorUpgradeTest {
  private static final String JOB = "Job/orders-upgrade-17";

  /** The HA sample at 16, settled, then asked for 17. */
  private static ObservedRequests askedFor17() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    world.spec.put("postgresVersion", 16);
    world.sync();
    world.runAllReady();
    world.sync();
    world.finishUsersJob(true);
    world.sync();
    assertThat(pgVersion(world)).isEqualTo("16");
    world.edit(spec -> spec.put("postgresVersion", 17));
    return world;
  }

  @Test
  void withEveryPreconditionMetTheUpgradeJobExecsIntoTheLeaderAndThePodsStayOnTheOldVersion() {
    ObservedRequests world = askedFor17();
    world.runPods(Set.of(), 1, false);
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("Upgrading");
    assertThat(pgVersion(world)).isEqualTo("16");
    JsonNode job = world.children.get(JOB);
    assertThat(job.at("/metadata/annotations").path(MajorUpgrade.FROM_ANNOTATION).asText())
        .isEqualTo("16");
    assertThat(job.at("/spec/backoffLimit").asInt()).isZero();
    assertThat(job.at("/spec/podFailurePolicy/rules/0"))
        .isEqualTo(
            json(
                "{\"action\":\"FailJob\",\"onExitCodes\":"
                    + "{\"containerName\":\"upgrade\",\"operator\":\"NotIn\",\"values\":[0]}}"));
    List<String> command = new ArrayList<>();
    job.at("/spec/template/spec/containers/0/command").forEach(arg -> command.add(arg.asText()));
    assertThat(command.subList(0, 6))
        .containsExactly(
            "kubectl",
            "exec",
            "--namespace",
            ObservedRequests.NAMESPACE,
            "pod/orders-1",
            "--container");
    assertThat(command.subList(command.size() - 7, command.size()))
        .containsExactly(
            "major-upgrade",
            "16",
            "17",
            "3",
            "/home/postgres/pgdata/pgroot/data",
            "/scripts",
            "/usr/lib/postgresql");
    assertThat(world.children.get("Role/orders-upgrade").at("/rules"))
        .isEqualTo(
            json(
                "[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[\"orders-1\"],\"verbs\":[\"get\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods/exec\"],\"resourceNames\":[\"orders-1\"],\"verbs\":[\"create\","
                    + "\"get\"]}]"));
    assertThat(world.children)
        .containsKeys("ServiceAccount/orders-upgrade", "RoleBinding/orders-upgrade");

    // A running Job is kept whatever the preconditions now say.
    world.runPods(Set.of(2), 1, false);
    answer = world.sync();
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("Upgrading");
    assertThat(world.children).containsKeys(JOB, "Role/orders-upgrade");
  }

  @Test
  void aRolloutANotReadyMemberOrAReplicaNotStreamingMakeItWait() {
    ObservedRequests world = askedFor17();
    world.runPods(Set.of(), 0, true);
    assertWaits(world, "WaitingForRollout", "the rollout to end first");
    world.runPods(Set.of(2), 0, false);
    assertWaits(
        world,
        "WaitingForReplicas",
        "2 of 3 members ready with a primary: Spilo's upgrade needs every member");
    world.runAllReady();
    world
        .pods
        .get("orders-2")
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put(
            "status",
            PatroniMemberData.replica(
                PatroniMemberData.Version.V4_0_4,
                "10.244.1.22",
                PatroniMemberData.POSITION,
                1,
                "stopped"));
    assertWaits(world, "WaitingForReplicas", "orders-2 to catch up with orders-0 (not streaming");
  }

  @Test
  void
      aJobThatFailedAfterTheSwitchMovesTheStatefulSetToTheNewVersionAndAnyOtherFailureKeepsTheOld() {
    ObservedRequests world = askedFor17();
    world.sync();
    fail(
        world,
        "PodFailurePolicy",
        "Container upgrade for pod shop/orders-upgrade-17-4xq2k failed with exit code "
            + MajorUpgrade.INCOMPLETE
            + " matching FailJob rule at index 0");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("Incomplete");
    assertThat(pgVersion(world)).isEqualTo("17");
    assertThat(TlsWorlds.condition(answer, "MajorUpgrade").path("status").asText())
        .isEqualTo("True");
    assertThat(world.children).doesNotContainKey("Role/orders-upgrade");

    ObservedRequests other = askedFor17();
    other.sync();
    fail(other, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
    answer = other.sync();
    assertThat(answer.at("/status/majorUpgrade/message").asText())
        .startsWith("Job orders-upgrade-17 failed; the cluster stays on PostgreSQL 16");
    assertThat(pgVersion(other)).isEqualTo("16");
  }

  /** A switchover on request and the upgrade never run at once: whichever Job exists first, the other waits. */
  @Test
  void aSwitchoverOnRequestWaitsForTheUpgradeJobAndTheUpgradeForARunningSwitchover() {
    ObservedRequests world = askedFor17();
    world.runPods(Set.of(), 1, false);
    world.sync();
    assertThat(world.children).containsKey(JOB);
    world.annotations.put(ManualSwitchover.ANNOTATION, "orders-2");
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Waiting");
    assertThat(answer.at("/status/switchover/message").asText())
        .isEqualTo("waiting for the major upgrade's Job orders-upgrade-17 to finish");
    assertThat(world.children.keySet()).noneMatch(key -> key.startsWith("Job/orders-switchover-"));
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("Upgrading");

    ObservedRequests other = askedFor17();
    other.runPods(Set.of(), 1, false);
    other.annotations.put(ManualSwitchover.ANNOTATION, "orders-2");
    answer = other.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Running");
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("WaitingForRollout");
    assertThat(answer.at("/status/majorUpgrade/message").asText())
        .startsWith("waiting for the switchover asked for to end first: Job orders-switchover-");
    assertThat(other.children).doesNotContainKey(JOB);
    // The leader moved: the request is done, and the upgrade runs on the new primary.
    other.runPods(Set.of(), 2, false);
    answer = other.sync();
    assertThat(answer.at("/status/switchover/state").asText()).isEqualTo("Done");
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo("Upgrading");
    assertThat(other.children.get(JOB).at("/spec/template/spec/containers/0/command/4").asText())
        .isEqualTo("pod/orders-2");
  }

  @Test
  void anotherVersionWhileTheUpgradeJobRunsIsRefusedAndTheJobKept() {
    ObservedRequests world = askedFor17();
    world.sync();
    Map<String, JsonNode> children = new TreeMap<>(world.children);
    world.edit(spec -> spec.put("postgresVersion", 16));
    JsonNode specValid = TlsWorlds.condition(world.sync(), "SpecValid");
    assertThat(specValid.path("message").asText())
        .isEqualTo(
            "spec.postgresVersion: cannot change to 16 while the upgrade Job orders-upgrade-17 runs");
    assertThat(world.children).isEqualTo(children);
  }

  @Test
  void aStandbyIsNotUpgradedInPlace() throws IOException {
    ObservedRequests standby = StandbyClusterTest.archiveStandby();
    standby.spec.put("postgresVersion", 16);
    standby.sync();
    standby.runAllReady();
    standby.sync();
    Map<String, JsonNode> children = new TreeMap<>(standby.children);
    standby.edit(spec -> spec.put("postgresVersion", 17));
    JsonNode specValid = TlsWorlds.condition(standby.sync(), "SpecValid");
    assertThat(specValid.path("message").asText())
        .startsWith(
            "spec.postgresVersion: cannot change from 16 to 17 "
                + "while the cluster is a standby");
    assertThat(standby.children).isEqualTo(children);
  }

  private static void assertWaits(ObservedRequests world, String phase, String message) {
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/majorUpgrade/phase").asText()).isEqualTo(phase);
    assertThat(answer.at("/status/majorUpgrade/message").asText()).contains(message);
    assertThat(world.children).doesNotContainKey(JOB);
    assertThat(pgVersion(world)).isEqualTo("16");
  }

  private static void fail(ObservedRequests world, String reason, String message) {
    ObjectNode status = world.children.get(JOB).putObject("status").put("failed", 1);
    status
        .putArray("conditions")
        .addObject()
        .put("type", "Failed")
        .put("status", "True")
        .put("reason", reason)
        .put("message", message);
  }

  static String pgVersion(ObservedRequests world) {
    for (JsonNode env : world.statefulSet().at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals("PGVERSION")) {
        return env.path("value").asText();
      }
    }
    throw new AssertionError("no PGVERSION");
  }
}
