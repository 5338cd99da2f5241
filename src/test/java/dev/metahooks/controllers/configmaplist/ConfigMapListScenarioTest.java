package dev.metahooks.controllers.configmaplist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * configmap-list end to end: the real manifest (hook API v2, a namespaced parent whose customize hook selects
 * ConfigMaps of another namespace by label) and the example, under the emulated Metacontroller. Mirrors
 * Metacontroller's examples/configmap-list-v2/test.sh and goes on to ConfigMaps that come, go or change labels.
 */
class ConfigMapListScenarioTest {
  private static final String API = "examples.metacontroller.io/v1alpha1";
  private static final String KIND = "ConfigMapList";
  private static final String CONTROLLER = "configmap-list-controller";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/configmap-list.yaml");
    cluster.createFile("manifests/examples/configmap-list.yaml");
  }

  @AfterEach
  void settlesWithValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void listsTheLabelledConfigMapsOfTheSourceNamespace() {
    mc.runUntilStable(10);

    assertThat(listed("my-config-list")).isEqualTo("source-ns/cm-1\nsource-ns/cm-2");
    assertThat(count("my-config-list")).isEqualTo(2);
    assertThat(
            cluster
                .get("v1", "ConfigMap", "target-ns", "my-config-list-list")
                .at("/metadata/ownerReferences/0/kind")
                .asText())
        .isEqualTo(KIND);
  }

  @Test
  void aThirdLabelledConfigMapIsAdded() {
    mc.runUntilStable(10);

    cluster.create(
        """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-3, namespace: source-ns, labels: {app: my-app}}}
        """);
    mc.runUntilStable(10);

    assertThat(listed("my-config-list"))
        .isEqualTo("source-ns/cm-1\nsource-ns/cm-2\nsource-ns/cm-3");
    assertThat(count("my-config-list")).isEqualTo(3);
  }

  @Test
  void onlyLabelledConfigMapsOfTheSourceNamespaceAreListed() {
    cluster.create(
        """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-elsewhere, namespace: target-ns, labels: {app: my-app}}}
        """);
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: unlabelled, namespace: source-ns}}");

    mc.runUntilStable(10);

    assertThat(listed("my-config-list")).isEqualTo("source-ns/cm-1\nsource-ns/cm-2");
  }

  @Test
  void relabellingAndDeletingChangeTheList() {
    mc.runUntilStable(10);

    cluster.update(
        "v1",
        "ConfigMap",
        "source-ns",
        "other-cm",
        configMap -> configMap.withObject("/metadata/labels").put("app", "my-app"));
    cluster.delete("v1", "ConfigMap", "source-ns", "cm-1");
    mc.runUntilStable(10);

    assertThat(listed("my-config-list")).isEqualTo("source-ns/cm-2\nsource-ns/other-cm");
    assertThat(count("my-config-list")).isEqualTo(2);
  }

  @Test
  void withoutASourceNamespaceEveryNamespaceIsSearched() {
    cluster.create(
        """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-elsewhere, namespace: elsewhere, labels: {app: my-app}}}
        """);
    cluster.create(
        """
        apiVersion: examples.metacontroller.io/v1alpha1
        kind: ConfigMapList
        metadata: {name: everywhere, namespace: target-ns}
        spec: {sourceLabels: {app: my-app}}
        """);

    mc.runUntilStable(10);

    assertThat(listed("everywhere"))
        .isEqualTo("elsewhere/cm-elsewhere\nsource-ns/cm-1\nsource-ns/cm-2");
    assertThat(count("everywhere")).isEqualTo(3);
    assertThat(listed("my-config-list")).isEqualTo("source-ns/cm-1\nsource-ns/cm-2");
  }

  @Test
  void deletingTheParentCollectsTheList() {
    mc.runUntilStable(10);

    cluster.delete(API, KIND, "target-ns", "my-config-list");
    mc.runUntilStable(10);

    assertThat(cluster.list("v1", "ConfigMap", "target-ns")).isEmpty();
    assertThat(cluster.list("v1", "ConfigMap", "source-ns")).hasSize(3);
  }

  /** The data.configmaps of the list a ConfigMapList in target-ns writes. */
  private String listed(String parent) {
    return cluster
        .get("v1", "ConfigMap", "target-ns", parent + "-list")
        .at("/data/configmaps")
        .asText();
  }

  private int count(String parent) {
    return cluster.get(API, KIND, "target-ns", parent).at("/status/count").asInt();
  }
}
