package dev.metahooks.controllers.globalconfigmap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * global-configmap end to end: the real manifest (a cluster-scoped parent whose customize hook asks for every
 * Namespace) and the example, under the emulated Metacontroller. Mirrors Metacontroller's
 * examples/globalconfigmap/test.sh and goes on to namespaces that come and go.
 */
class GlobalConfigMapScenarioTest {
  private static final String API = "examples.metacontroller.io/v1alpha1";
  private static final String KIND = "GlobalConfigMap";
  private static final String PARENT = "globalsettings";
  private static final String CONTROLLER = "globalconfigmap-controller";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/global-configmap.yaml");
    cluster.createFile("manifests/examples/global-configmap.yaml");
  }

  @AfterEach
  void settlesWithValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void copiesTheSourceIntoEveryNamespaceButItsOwn() {
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("first", "second", "third");
    for (String namespace : List.of("first", "second", "third")) {
      ObjectNode copy = cluster.get("v1", "ConfigMap", namespace, "globalsettings");
      assertThat(copy.get("data")).isEqualTo(source().get("data"));
      assertThat(copy.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo(KIND);
    }
    assertThat(cluster.list("v1", "ConfigMap", "global")).hasSize(1);
    assertThat(cluster.get(API, KIND, PARENT).at("/status/working").asText()).isEqualTo("fine");
  }

  @Test
  void aNamespaceCreatedLaterGetsItsCopy() {
    mc.runUntilStable(10);

    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: fourth}}");
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("first", "fourth", "second", "third");
    assertThat(cluster.get("v1", "ConfigMap", "fourth", "globalsettings").get("data"))
        .isEqualTo(source().get("data"));
  }

  @Test
  void aDeletedNamespaceIsNotGivenACopyAgain() {
    mc.runUntilStable(10);

    cluster.delete("v1", "Namespace", "second");
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("first", "third");
  }

  @Test
  void changingTheSourceUpdatesEveryCopyInPlace() {
    mc.runUntilStable(10);
    String uidBefore =
        cluster.get("v1", "ConfigMap", "first", "globalsettings").at("/metadata/uid").asText();

    cluster.update(
        "v1",
        "ConfigMap",
        "global",
        "globalsettings",
        source -> source.withObject("/data").put("some", "changed"));
    mc.runUntilStable(10);

    for (String namespace : List.of("first", "second", "third")) {
      assertThat(
              cluster.get("v1", "ConfigMap", namespace, "globalsettings").at("/data/some").asText())
          .isEqualTo("changed");
    }
    assertThat(
            cluster.get("v1", "ConfigMap", "first", "globalsettings").at("/metadata/uid").asText())
        .isEqualTo(uidBefore);
  }

  @Test
  void deletingTheSourceRemovesEveryCopy() {
    mc.runUntilStable(10);

    cluster.delete("v1", "ConfigMap", "global", "globalsettings");
    mc.runUntilStable(10);

    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
    assertThat(cluster.get(API, KIND, PARENT).at("/status/working").asText()).isEqualTo("fine");
  }

  @Test
  void deletingTheParentCollectsEveryCopy() {
    mc.runUntilStable(10);

    cluster.delete(API, KIND, PARENT);
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).isEmpty();
    assertThat(cluster.exists("v1", "ConfigMap", "global", "globalsettings")).isTrue();
  }

  private ObjectNode source() {
    return cluster.get("v1", "ConfigMap", "global", "globalsettings");
  }

  /** The namespaces, other than the source's, that hold a ConfigMap globalsettings. */
  private List<String> namespacesWithACopy() {
    return cluster.list("v1", "ConfigMap").stream()
        .filter(configMap -> configMap.at("/metadata/name").asText().equals("globalsettings"))
        .map(configMap -> configMap.at("/metadata/namespace").asText())
        .filter(namespace -> !namespace.equals("global"))
        .toList();
  }
}
