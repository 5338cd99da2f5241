package dev.metahooks.controllers.configmappropagation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.kube.Yaml;
import dev.metahooks.testsupport.Project;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * configmap-propagation end to end: the real manifest (a cluster-scoped parent, a customize rule by namespace
 * and names, and a parent label selector {@code version=v1}) and the example, under the emulated
 * Metacontroller. Mirrors Metacontroller's examples/configmappropagation/test.sh and goes on to updates.
 */
class ConfigMapPropagationScenarioTest {
  private static final String API = "examples.metacontroller.io/v1alpha1";
  private static final String KIND = "ConfigMapPropagation";
  private static final String PARENT = "settings-propagation";
  private static final String CONTROLLER = "configmap-propagation-controller";
  private static final List<String> TARGETS = List.of("one", "two", "three");

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/configmap-propagation.yaml");
    cluster.createFile("manifests/examples/configmap-propagation.yaml");
  }

  @AfterEach
  void settlesWithValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void copiesTheSourceIntoEachTargetNamespace() {
    mc.runUntilStable(10);

    for (String namespace : TARGETS) {
      ObjectNode copy = cluster.get("v1", "ConfigMap", namespace, "settings");
      assertThat(copy.get("data")).isEqualTo(source().get("data"));
      assertThat(copy.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo(KIND);
      assertThat(copy.at("/metadata/ownerReferences/0/name").asText()).isEqualTo(PARENT);
    }
    assertThat(cluster.list("v1", "ConfigMap", "original")).hasSize(1);
    assertThat(status().get("expected_copies").asInt()).isEqualTo(3);
    assertThat(status().get("actual_copies").asInt()).isEqualTo(3);
  }

  @Test
  void ignoresAParentLabelledVersionV2() {
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: four}}");
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: five}}");
    cluster.create(
        """
        apiVersion: examples.metacontroller.io/v1alpha1
        kind: ConfigMapPropagation
        metadata: {name: settings-propagation-unmanaged, labels: {version: v2}}
        spec: {sourceName: settings, sourceNamespace: original, targetNamespaces: [four, five]}
        """);

    mc.runUntilStable(10);

    assertThat(cluster.list("v1", "ConfigMap", "four")).isEmpty();
    assertThat(cluster.list("v1", "ConfigMap", "five")).isEmpty();
    assertThat(cluster.get(API, KIND, "settings-propagation-unmanaged").has("status")).isFalse();
    assertThat(mc.calls())
        .noneMatch(call -> call.parent().contains("settings-propagation-unmanaged"));
    assertThat(status().get("actual_copies").asInt()).isEqualTo(3);
  }

  @Test
  void changingTheSourceUpdatesTheCopiesInPlace() {
    mc.runUntilStable(10);
    String uidBefore =
        cluster.get("v1", "ConfigMap", "two", "settings").at("/metadata/uid").asText();

    cluster.update(
        "v1",
        "ConfigMap",
        "original",
        "settings",
        source -> {
          ObjectNode data = source.withObject("/data");
          data.put("some", "changed");
          data.remove("other");
          data.put("added", "new");
        });
    mc.runUntilStable(10);

    for (String namespace : TARGETS) {
      ObjectNode copy = cluster.get("v1", "ConfigMap", namespace, "settings");
      assertThat(copy.get("data")).isEqualTo(Yaml.object("{some: changed, added: new}"));
    }
    assertThat(cluster.get("v1", "ConfigMap", "two", "settings").at("/metadata/uid").asText())
        .isEqualTo(uidBefore);
  }

  @Test
  void deletingTheSourceRemovesTheCopies() {
    mc.runUntilStable(10);

    cluster.delete("v1", "ConfigMap", "original", "settings");
    mc.runUntilStable(10);

    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
    assertThat(status().get("expected_copies").asInt()).isEqualTo(3);
    assertThat(status().get("actual_copies").asInt()).isZero();
  }

  @Test
  void aSourceCreatedAgainIsCopiedAgain() {
    mc.runUntilStable(10);
    cluster.delete("v1", "ConfigMap", "original", "settings");
    mc.runUntilStable(10);

    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: original}, data: {k: v}}");
    mc.runUntilStable(10);

    for (String namespace : TARGETS) {
      assertThat(cluster.get("v1", "ConfigMap", namespace, "settings").get("data"))
          .isEqualTo(Yaml.object("{k: v}"));
    }
    assertThat(status().get("actual_copies").asInt()).isEqualTo(3);
  }

  @Test
  void listingTheSourceNamespaceAsATargetLeavesTheSourceAlone() {
    mc.runUntilStable(10);
    ObjectNode sourceBefore = source();

    cluster.update(
        API,
        KIND,
        "",
        PARENT,
        parent -> parent.withArray("/spec/targetNamespaces").add("original"));
    mc.runUntilStable(10);

    assertThat(source()).isEqualTo(sourceBefore);
    assertThat(status().get("expected_copies").asInt()).isEqualTo(4);
    assertThat(status().get("actual_copies").asInt()).isEqualTo(3);
  }

  @Test
  void removingATargetNamespaceFromTheSpecRemovesItsCopy() {
    mc.runUntilStable(10);

    cluster.update(
        API,
        KIND,
        "",
        PARENT,
        parent -> parent.withObject("/spec").putArray("targetNamespaces").add("one").add("three"));
    mc.runUntilStable(10);

    assertThat(cluster.exists("v1", "ConfigMap", "two", "settings")).isFalse();
    assertThat(cluster.exists("v1", "ConfigMap", "one", "settings")).isTrue();
    assertThat(cluster.exists("v1", "ConfigMap", "three", "settings")).isTrue();
    assertThat(status().get("expected_copies").asInt()).isEqualTo(2);
    assertThat(status().get("actual_copies").asInt()).isEqualTo(2);
  }

  @Test
  void aCopyDeletedByHandIsCreatedAgain() {
    mc.runUntilStable(10);

    cluster.delete("v1", "ConfigMap", "three", "settings");
    mc.runUntilStable(10);

    assertThat(cluster.get("v1", "ConfigMap", "three", "settings").get("data"))
        .isEqualTo(source().get("data"));
    assertThat(status().get("actual_copies").asInt()).isEqualTo(3);
  }

  private ObjectNode source() {
    return cluster.get("v1", "ConfigMap", "original", "settings");
  }

  private ObjectNode status() {
    return (ObjectNode) cluster.get(API, KIND, PARENT).get("status");
  }
}
