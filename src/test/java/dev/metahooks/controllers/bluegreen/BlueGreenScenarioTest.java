package dev.metahooks.controllers.bluegreen;

import static dev.metahooks.testsupport.JsonLiteral.json;
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
 * bluegreen end to end, following upstream's test.sh: blue active with 3 ready, a template label change
 * rolls out on green and makes it active with blue scaled to 0, a second change goes back to blue; each
 * time {@code status.observedGeneration == metadata.generation}. Here the order of the switch is checked
 * too: the Service moves only to a fully available color, and the old color shrinks only after it moved.
 */
class BlueGreenScenarioTest {
  private static final String API = "ctl.enisoc.com/v1";
  private static final String CONTROLLER = "bluegreen-controller";
  private static final String ACTOR = "metacontroller/" + CONTROLLER;

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/bluegreen.yaml");
    cluster.createFile("manifests/examples/bluegreen.yaml");
  }

  @Test
  void blueBecomesActiveWithThreeReadyReplicas() {
    mc.runUntilStable(10);

    assertActive("blue");
    assertThat(service().at("/spec/ports/0/port").asInt()).isEqualTo(80);
    assertThat(replicaSet("blue").at("/spec/template/metadata/labels/color").asText())
        .isEqualTo("blue");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void templateChangesAlternateTheActiveColor() {
    mc.runUntilStable(10);
    assertActive("blue");

    long firstRollout = cluster.lastSequence();
    addTemplateLabel("new", "label");
    mc.runUntilStable(10);

    assertActive("green");
    assertThat(replicaSet("green").at("/spec/template/metadata/labels/new").asText())
        .isEqualTo("label");
    assertSwitchedOnlyToAnAvailableColorBeforeScalingTheOldDown(firstRollout, "green", "blue");

    long secondRollout = cluster.lastSequence();
    addTemplateLabel("new2", "label2");
    mc.runUntilStable(10);

    assertActive("blue");
    assertThat(replicaSet("blue").at("/spec/template/metadata/labels/new2").asText())
        .isEqualTo("label2");
    assertSwitchedOnlyToAnAvailableColorBeforeScalingTheOldDown(secondRollout, "blue", "green");
    assertNoHotLoopAndValidChildren();
  }

  /**
   * A template whose quantities are written in another form than the API server stores them ({@code cpu: "0.5"})
   * reaches the ReplicaSet in the stored form: an echo would differ from the stored ReplicaSet on every sync, and
   * Metacontroller would send it again each time. The annotation keeps the template as written.
   */
  @Test
  void aTemplateWithQuantitiesInAnotherFormSettles() {
    mc.runUntilStable(10);
    cluster.update(
        API,
        "BlueGreenDeployment",
        "default",
        "nginx",
        bgd ->
            ((ObjectNode) bgd.at("/spec/template/spec/containers/0"))
                .putObject("resources")
                .putObject("requests")
                .put("cpu", "0.5")
                .put("memory", "1024Mi"));
    mc.runUntilStable(10);
    mc.resyncAll();
    mc.runUntilStable(10);

    assertActive("green");
    assertThat(replicaSet("green").at("/spec/template/spec/containers/0/resources/requests"))
        .isEqualTo(json("{\"cpu\":\"500m\",\"memory\":\"1Gi\"}"));
    assertThat(replicaSet("green").at("/metadata/annotations").toString()).contains("0.5");
    assertThat(mc.idleUpdates()).isEmpty();
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void theServiceStaysOnTheOldColorUntilTheNewOneIsAvailable() {
    mc.runUntilStable(10);
    mc.world().workloadsReady(false); // no ReplicaSet reports available Pods any more

    addTemplateLabel("new", "label");
    mc.runUntilStable(10);

    assertThat(service().at("/spec/selector/color").asText()).isEqualTo("blue");
    assertThat(bgd().at("/status/activeColor").asText()).isEqualTo("blue");
    assertThat(replicaSet("blue").at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(replicaSet("green").at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(replicaSet("green").at("/spec/template/metadata/labels/new").asText())
        .isEqualTo("label");

    mc.world().workloadsReady(true);
    mc.runUntilStable(10);

    assertActive("green");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aNewerTemplateDuringARolloutDrainsTheInactiveColorAndRollsOutTheNewerOne() {
    mc.runUntilStable(10);
    mc.world().workloadsReady(false);
    addTemplateLabel("new", "label");
    mc.runUntilStable(10);
    assertThat(replicaSet("green").at("/spec/replicas").asInt()).isEqualTo(3);
    long start = cluster.lastSequence();

    addTemplateLabel("newer", "label");
    mc.runUntilStable(10);

    // Green first went back to 0 (the stale rollout cancelled), then up with the newer template.
    List<Integer> greenReplicas =
        cluster.writesAfter(start).stream()
            .filter(
                w -> w.actor().equals(ACTOR) && w.object().equals("ReplicaSet default/nginx-green"))
            .map(w -> w.after().at("/spec/replicas").asInt())
            .toList();
    assertThat(greenReplicas).containsExactly(0, 3);
    assertThat(replicaSet("green").at("/spec/template/metadata/labels/newer").asText())
        .isEqualTo("label");
    assertThat(service().at("/spec/selector/color").asText()).isEqualTo("blue");

    mc.world().workloadsReady(true);
    mc.runUntilStable(10);

    assertActive("green");
    assertNoHotLoopAndValidChildren();
  }

  // ---- helpers

  /** The upstream checks, with activeColor compared for real (test.sh compares strings with -eq). */
  private void assertActive(String color) {
    String other = color.equals("blue") ? "green" : "blue";
    assertThat(replicaSet(color).at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertThat(replicaSet(other).at("/status/replicas").asInt()).isZero();
    assertThat(replicaSet(other).at("/spec/replicas").asInt()).isZero();
    ObjectNode bgd = bgd();
    assertThat(bgd.at("/status/activeColor").asText()).isEqualTo(color);
    assertThat(bgd.at("/status/active/availableReplicas").asInt()).isEqualTo(3);
    assertThat(bgd.at("/status/observedGeneration").asLong())
        .isEqualTo(bgd.at("/metadata/generation").asLong());
    assertThat(service().at("/spec/selector/color").asText()).isEqualTo(color);
  }

  /**
   * Since {@code sequence}: the controller's Service update (the switch) came when the new color had all 3
   * replicas available, and the old color's scale-down came after it.
   */
  private void assertSwitchedOnlyToAnAvailableColorBeforeScalingTheOldDown(
      long sequence, String to, String from) {
    List<Write> writes = cluster.writesAfter(sequence);
    Write switchWrite =
        writes.stream()
            .filter(
                w -> w.actor().equals(ACTOR) && w.object().equals("Service default/nginx-frontend"))
            .reduce(
                (first, second) -> {
                  throw new AssertionError("the Service was updated twice");
                })
            .orElseThrow(() -> new AssertionError("the Service was not switched"));
    assertThat(switchWrite.after().at("/spec/selector/color").asText()).isEqualTo(to);
    ObjectNode newColor =
        lastStateBefore(writes, "ReplicaSet default/nginx-" + to, switchWrite.sequence());
    assertThat(newColor.at("/status/availableReplicas").asInt()).isEqualTo(3);
    assertThat(newColor.at("/status/observedGeneration").asLong())
        .isEqualTo(newColor.at("/metadata/generation").asLong());

    Write scaleDown =
        writes.stream()
            .filter(
                w ->
                    w.actor().equals(ACTOR)
                        && w.object().equals("ReplicaSet default/nginx-" + from))
            .filter(w -> w.after().at("/spec/replicas").asInt(-1) == 0)
            .findFirst()
            .orElseThrow(() -> new AssertionError("nginx-" + from + " was not scaled down"));
    assertThat(scaleDown.sequence()).isGreaterThan(switchWrite.sequence());
  }

  private static ObjectNode lastStateBefore(List<Write> writes, String object, long sequence) {
    return writes.stream()
        .filter(w -> w.object().equals(object) && w.sequence() < sequence)
        .reduce((first, second) -> second)
        .map(Write::after)
        .orElseThrow(() -> new AssertionError(object + " was not written before " + sequence));
  }

  private void addTemplateLabel(String key, String value) {
    cluster.update(
        API,
        "BlueGreenDeployment",
        "default",
        "nginx",
        bgd -> ((ObjectNode) bgd.at("/spec/template/metadata/labels")).put(key, value));
  }

  private void assertNoHotLoopAndValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  private ObjectNode bgd() {
    return cluster.get(API, "BlueGreenDeployment", "default", "nginx");
  }

  private ObjectNode replicaSet(String color) {
    return cluster.get("apps/v1", "ReplicaSet", "default", "nginx-" + color);
  }

  private ObjectNode service() {
    return cluster.get("v1", "Service", "default", "nginx-frontend");
  }
}
