package dev.metahooks.controllers.daemonjob;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Write;
import dev.metahooks.testsupport.Project;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * daemonjob end to end, following upstream's test.sh: the DaemonJob gets {@code status.conditions[0]} Complete
 * True and its DaemonSet {@code hello-world-dj} is deleted afterwards. Here also: nothing completes while
 * the nodes are not ready, the completion is recorded before the DaemonSet goes, and it never comes back.
 */
class DaemonJobScenarioTest {
  private static final String API = "ctl.example.com/v1";
  private static final String CONTROLLER = "daemonjob-controller";
  private static final String DAEMON_SET = "DaemonSet default/hello-world-dj";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/daemonjob.yaml");
    cluster.createFile("manifests/examples/daemonjob.yaml");
  }

  @Test
  void completesOnceEveryNodeIsReadyThenDeletesTheDaemonSet() {
    mc.runUntilStable(10);

    ObjectNode job = daemonJob();
    assertThat(job.at("/status/conditions/0/type").asText()).isEqualTo("Complete");
    assertThat(job.at("/status/conditions/0/status").asText()).isEqualTo("True");
    assertThat(job.at("/status/desiredNumberScheduled").asInt()).isEqualTo(1);
    assertThat(job.at("/status/numberReady").asInt()).isEqualTo(1);
    assertThat(cluster.exists("apps/v1", "DaemonSet", "default", "hello-world-dj")).isFalse();
    assertCompletionRecordedBeforeTheDaemonSetWasDeleted();
    assertNoHotLoopAndValidChildren();
    assertThat(daemonSetWrites(Write.Verb.CREATE)).hasSize(1);
  }

  @Test
  void runsTheJobAsInitContainersBeforeAPauseContainer() {
    mc.round();

    ObjectNode daemonSet = cluster.get("apps/v1", "DaemonSet", "default", "hello-world-dj");
    ObjectNode podSpec = (ObjectNode) daemonSet.at("/spec/template/spec");
    assertThat(podSpec.at("/initContainers/0/name").asText()).isEqualTo("hello-world");
    assertThat(podSpec.at("/initContainers/0/command/2").asText())
        .isEqualTo("echo 'Hello world' && sleep 30");
    assertThat(podSpec.at("/containers").size()).isEqualTo(1);
    assertThat(podSpec.at("/containers/0/name").asText()).isEqualTo("pause");
    assertThat(podSpec.at("/containers/0/image").asText())
        .isEqualTo("gcr.io/google_containers/pause");
    assertThat(podSpec.at("/terminationGracePeriodSeconds").asInt()).isEqualTo(10);
    assertThat(daemonSet.at("/spec/selector/matchLabels/app").asText()).isEqualTo("hello-world");
    assertThat(daemonSet.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("DaemonJob");
  }

  @Test
  void staysIncompleteWhileSomeNodesAreNotReady() {
    mc.world().nodes(3).workloadsReady(false);

    mc.runUntilStable(10);

    ObjectNode job = daemonJob();
    assertThat(job.at("/status/conditions/0/status").asText()).isEqualTo("False");
    assertThat(job.at("/status/desiredNumberScheduled").asInt()).isEqualTo(3);
    assertThat(job.at("/status/numberReady").asInt()).isZero();
    assertThat(cluster.exists("apps/v1", "DaemonSet", "default", "hello-world-dj")).isTrue();

    mc.world().workloadsReady(true);
    mc.runUntilStable(10);

    assertThat(daemonJob().at("/status/conditions/0/status").asText()).isEqualTo("True");
    assertThat(daemonJob().at("/status/numberReady").asInt()).isEqualTo(3);
    assertThat(cluster.exists("apps/v1", "DaemonSet", "default", "hello-world-dj")).isFalse();
    assertCompletionRecordedBeforeTheDaemonSetWasDeleted();
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void deletingARunningDaemonJobCollectsItsDaemonSet() {
    mc.world().workloadsReady(false);
    mc.runUntilStable(10);

    cluster.delete(API, "DaemonJob", "default", "hello-world");
    mc.runUntilStable(5);

    assertThat(cluster.list("apps/v1", "DaemonSet")).isEmpty();
  }

  // ---- helpers

  /** The status write that set Complete=True came before the controller deleted the DaemonSet. */
  private void assertCompletionRecordedBeforeTheDaemonSetWasDeleted() {
    long completed =
        cluster.writes().stream()
            .filter(
                w ->
                    w.object().equals("DaemonJob default/hello-world")
                        && w.verb() == Write.Verb.UPDATE_STATUS)
            .filter(w -> w.after().at("/status/conditions/0/status").asText().equals("True"))
            .mapToLong(Write::sequence)
            .min()
            .orElseThrow(() -> new AssertionError("Complete=True never written"));
    List<Write> deletes = daemonSetWrites(Write.Verb.DELETE);
    assertThat(deletes).hasSize(1);
    assertThat(deletes.get(0).actor()).isEqualTo("metacontroller/" + CONTROLLER);
    assertThat(deletes.get(0).sequence()).isGreaterThan(completed);
  }

  private List<Write> daemonSetWrites(Write.Verb verb) {
    return cluster.writes().stream()
        .filter(w -> w.object().equals(DAEMON_SET) && w.verb() == verb)
        .toList();
  }

  private void assertNoHotLoopAndValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  private ObjectNode daemonJob() {
    return cluster.get(API, "DaemonJob", "default", "hello-world");
  }
}
