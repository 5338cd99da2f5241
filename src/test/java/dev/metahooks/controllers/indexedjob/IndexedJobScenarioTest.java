package dev.metahooks.controllers.indexedjob;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.PodPolicy;
import dev.metahooks.emulator.PodState;
import dev.metahooks.emulator.Profile;
import dev.metahooks.emulator.Round;
import dev.metahooks.testsupport.Project;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * indexedjob end to end: upstream's test.sh waits for {@code status.succeeded == 10} and reads index 9 from
 * Pod print-index-9; here also parallelism is watched round by round, and failures and finished jobs.
 */
class IndexedJobScenarioTest {
  private static final String API = "ctl.enisoc.com/v1";
  private static final String CONTROLLER = "indexedjob-controller";
  private static final int COMPLETIONS = 10;
  private static final int PARALLELISM = 2;

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/indexedjob.yaml");
    cluster.createFile("manifests/examples/indexedjob.yaml");
  }

  @Test
  void aTemplateWithTolerationsSettlesAlthoughTheApiServerAddsItsOwn() {
    mc.profile(Profile.V4_17_2); // a real API server adds the default tolerations
    cluster.update(
        API,
        "IndexedJob",
        "default",
        "print-index",
        job ->
            job.withObject("/spec/template/spec")
                .putArray("tolerations")
                .addObject()
                .put("key", "batch")
                .put("operator", "Exists")
                .put("effect", "NoSchedule"));
    mc.world().pods(pod -> PodState.SUCCEEDED);

    mc.runUntilStable(60);

    assertThat(pod("print-index-0").at("/spec/tolerations"))
        .as("DefaultTolerationSeconds added two")
        .hasSize(3);
    assertThat(job().at("/status/succeeded").asInt()).isEqualTo(COMPLETIONS);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void runsEveryIndexToCompletionNeverMoreThanParallelismAtOnce() {
    // Each Pod is Pending for one step and Running for one more before it succeeds, so Pods
    // overlap.
    mc.world().pods(PodPolicy.pendingFor(1, runningFor(1)));

    int mostActive = runRoundsCheckingParallelism(60);

    ObjectNode job = job();
    assertThat(job.at("/status/succeeded").asInt()).isEqualTo(COMPLETIONS);
    assertThat(job.at("/status/active").asInt()).isZero();
    assertThat(job.at("/status/failed").asInt()).isZero();
    assertThat(completeCondition(job)).isEqualTo("True");
    assertThat(job.at("/status/observedGeneration").asLong())
        .isEqualTo(job.at("/metadata/generation").asLong());
    assertThat(mostActive).isEqualTo(PARALLELISM);
    assertThat(podNames()).hasSize(COMPLETIONS);
    for (int index = 0; index < COMPLETIONS; index++) {
      assertThat(jobIndexOf(pod("print-index-" + index))).isEqualTo(String.valueOf(index));
    }
    ObjectNode lastPod =
        pod("print-index-9"); // what upstream's `kubectl logs print-index-9` reads as "9"
    assertThat(lastPod.at("/spec/containers/0/command/2").asText()).isEqualTo("echo ${JOB_INDEX}");
    assertThat(lastPod.at("/status/phase").asText()).isEqualTo("Succeeded");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void startsPodsInIndexOrderAtMostParallelismPerRound() {
    mc.world().pods(PodPolicy.succeeded());

    mc.round();
    assertThat(podNames()).containsExactly("print-index-0", "print-index-1");
    mc.round(); // 0 and 1 succeed, then 2 and 3 start
    assertThat(podNames())
        .containsExactly("print-index-0", "print-index-1", "print-index-2", "print-index-3");

    mc.runUntilStable(20);
    assertThat(job().at("/status/succeeded").asInt()).isEqualTo(COMPLETIONS);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aFailedIndexIsNotRetriedAndTheJobStaysIncomplete() {
    mc.world()
        .pods(
            pod ->
                pod.at("/metadata/name").asText().equals("print-index-3")
                    ? PodState.FAILED
                    : PodState.SUCCEEDED);

    runRoundsCheckingParallelism(40);

    ObjectNode job = job();
    assertThat(job.at("/status/succeeded").asInt()).isEqualTo(COMPLETIONS - 1);
    assertThat(job.at("/status/failed").asInt()).isEqualTo(1);
    assertThat(job.at("/status/active").asInt()).isZero();
    assertThat(completeCondition(job)).isEqualTo("False");
    assertThat(pod("print-index-3").at("/status/phase").asText()).isEqualTo("Failed");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aFinishedJobNeitherRecreatesRemovedPodsNorChangesItsStatus() {
    mc.world().pods(PodPolicy.succeeded());
    mc.runUntilStable(20);
    JsonNode finalStatus = job().get("status");

    cluster.delete("v1", "Pod", "default", "print-index-0"); // as Pod garbage collection would
    mc.runUntilStable(5);

    assertThat(cluster.exists("v1", "Pod", "default", "print-index-0")).isFalse();
    assertThat(podNames()).hasSize(COMPLETIONS - 1);
    assertThat(job().get("status")).isEqualTo(finalStatus);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void deletingTheJobCollectsItsPods() {
    mc.world().pods(PodPolicy.succeeded());
    mc.runUntilStable(20);

    cluster.delete(API, "IndexedJob", "default", "print-index");
    mc.runUntilStable(5);

    assertThat(cluster.list("v1", "Pod")).isEmpty();
  }

  // ---- helpers

  /** Runs rounds until one changes nothing, checking after each that at most parallelism Pods are active. */
  private int runRoundsCheckingParallelism(int maxRounds) {
    int mostActive = 0;
    for (int i = 0; i < maxRounds; i++) {
      Round round = mc.round();
      int active = activePods();
      assertThat(active)
          .as("active Pods after round %d", round.number())
          .isLessThanOrEqualTo(PARALLELISM);
      mostActive = Math.max(mostActive, active);
      if (!round.changed()) {
        return mostActive;
      }
    }
    throw new AssertionError("the job did not settle within " + maxRounds + " rounds");
  }

  /** Running for {@code steps} world steps, then Succeeded. */
  private static PodPolicy runningFor(int steps) {
    Map<String, Integer> seen = new HashMap<>();
    return pod ->
        seen.merge(pod.at("/metadata/uid").asText(), 1, Integer::sum) <= steps
            ? PodState.RUNNING
            : PodState.SUCCEEDED;
  }

  private void assertNoHotLoopAndValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  private int activePods() {
    return (int)
        cluster.list("v1", "Pod").stream()
            .map(pod -> pod.at("/status/phase").asText())
            .filter(phase -> !phase.equals("Succeeded") && !phase.equals("Failed"))
            .count();
  }

  private ObjectNode job() {
    return cluster.get(API, "IndexedJob", "default", "print-index");
  }

  private ObjectNode pod(String name) {
    return cluster.get("v1", "Pod", "default", name);
  }

  private List<String> podNames() {
    return cluster.list("v1", "Pod").stream()
        .map(pod -> pod.at("/metadata/name").asText())
        .sorted()
        .toList();
  }

  private static String completeCondition(ObjectNode job) {
    for (JsonNode condition : job.at("/status/conditions")) {
      if (condition.path("type").asText().equals("Complete")) {
        return condition.path("status").asText();
      }
    }
    return "absent";
  }

  private static String jobIndexOf(ObjectNode pod) {
    for (JsonNode env : pod.at("/spec/containers/0/env")) {
      if (env.path("name").asText().equals("JOB_INDEX")) {
        return env.path("value").asText();
      }
    }
    return "absent";
  }
}
