package dev.metahooks.controllers.podnamelabel;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * pod-name-label end to end on its own sample (Pod {@code debug} asking for label {@code instance}); the
 * service-per-pod scenarios cover it together with the per-pod Services.
 */
class PodNameLabelScenarioTest {
  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/pod-name-label.yaml");
    cluster.createFile("manifests/examples/pod-name-label.yaml");
  }

  @Test
  void labelsTheAnnotatedPodWithItsOwnNameAndNothingElse() {
    cluster.create(
        """
        {apiVersion: v1, kind: Pod, metadata: {name: plain, labels: {app: x}},
         spec: {containers: [{name: c, image: busybox}]}}""");

    mc.runUntilStable(5);

    ObjectNode debug = cluster.get("v1", "Pod", "default", "debug");
    assertThat(debug.at("/metadata/labels/instance").asText()).isEqualTo("debug");
    assertThat(debug.at("/metadata/labels").size()).isEqualTo(1);
    assertThat(debug.at("/metadata/finalizers").isMissingNode())
        .isTrue(); // no finalize hook, no finalizer
    assertThat(cluster.get("v1", "Pod", "default", "plain").at("/metadata/labels"))
        .isEqualTo(json("{\"app\":\"x\"}"));
    assertThat(mc.calls("pod-name-label", "sync"))
        .allMatch(call -> call.parent().equals("Pod default/debug"));
  }

  @Test
  void aRemovedLabelIsPutBackAndAChangedAnnotationAddsTheNewKey() {
    mc.runUntilStable(5);

    cluster.update(
        "v1",
        "Pod",
        "default",
        "debug",
        pod -> ((ObjectNode) pod.at("/metadata/labels")).remove("instance"));
    mc.runUntilStable(5);
    assertThat(
            cluster.get("v1", "Pod", "default", "debug").at("/metadata/labels/instance").asText())
        .isEqualTo("debug");

    cluster.update(
        "v1",
        "Pod",
        "default",
        "debug",
        pod -> ((ObjectNode) pod.at("/metadata/annotations")).put("pod-name-label", "name"));
    mc.runUntilStable(5);
    ObjectNode debug = cluster.get("v1", "Pod", "default", "debug");
    assertThat(debug.at("/metadata/labels/name").asText()).isEqualTo("debug");
    assertThat(debug.at("/metadata/labels/instance").asText())
        .isEqualTo("debug"); // labels are only ever added
  }
}
