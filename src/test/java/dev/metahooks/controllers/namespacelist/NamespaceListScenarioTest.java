package dev.metahooks.controllers.namespacelist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * namespace-list end to end: the real manifest (hook API v2, a namespaced parent whose customize hook selects
 * cluster-scoped Namespaces) and the example, under the emulated Metacontroller. Mirrors Metacontroller's
 * examples/namespace-list-v2/test.sh and goes on to namespaces that start or stop matching.
 */
class NamespaceListScenarioTest {
  private static final String API = "examples.metacontroller.io/v1alpha1";
  private static final String KIND = "NamespaceList";
  private static final String PARENT = "filtered-namespaces";
  private static final String CONTROLLER = "namespace-list-controller";
  private static final String MANIFEST = "metacontroller/namespace-list.yaml";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, MANIFEST);
    cluster.createFile("manifests/examples/namespace-list.yaml");
  }

  @AfterEach
  void settlesWithValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void listsTheMatchingNamespaces() {
    mc.runUntilStable(10);

    assertThat(listedNamespaces()).isEqualTo("test-ns");
    assertThat(count()).isEqualTo(1);
    ObjectNode list = cluster.get("v1", "ConfigMap", "test-ns", "filtered-namespaces-list");
    assertThat(list.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo(KIND);
    // Hook API v2 keys cluster-scoped related objects by name alone.
    ObjectNode request = mc.lastCall(CONTROLLER, "sync").request();
    assertThat(request.at("/related/Namespace.v1").has("test-ns")).isTrue();
  }

  @Test
  void aNewMatchingNamespaceIsAddedAndAnUnlabelledOneIsNot() {
    mc.runUntilStable(10);

    cluster.create(
        """
        {apiVersion: v1, kind: Namespace, metadata: {name: another-ns, labels: {example-controller: namespace-list}}}
        """);
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: plain-ns}}");
    mc.runUntilStable(10);

    assertThat(listedNamespaces()).isEqualTo("another-ns\ntest-ns");
    assertThat(count()).isEqualTo(2);
  }

  @Test
  void aNamespaceThatLosesTheLabelIsDropped() {
    cluster.create(
        """
        {apiVersion: v1, kind: Namespace, metadata: {name: another-ns, labels: {example-controller: namespace-list}}}
        """);
    mc.runUntilStable(10);
    assertThat(count()).isEqualTo(2);

    cluster.update(
        "v1",
        "Namespace",
        "",
        "another-ns",
        namespace ->
            namespace.withObject("/metadata/labels").put("example-controller", "something-else"));
    mc.runUntilStable(10);

    assertThat(listedNamespaces()).isEqualTo("test-ns");
    assertThat(count()).isEqualTo(1);
  }

  @Test
  void withHookApiV1TheListStaysEmpty() throws IOException {
    // v1 drops cluster-scoped related objects for a namespaced parent, so the hook sees no
    // Namespace.
    cluster = Project.cluster();
    mc =
        Project.metacontroller(cluster)
            .loadYaml(Files.readString(Path.of(MANIFEST)).replace("version: v2", "version: v1"));
    cluster.createFile("manifests/examples/namespace-list.yaml");

    mc.runUntilStable(10);

    assertThat(listedNamespaces()).isEmpty();
    assertThat(count()).isZero();
  }

  private String listedNamespaces() {
    return cluster
        .get("v1", "ConfigMap", "test-ns", "filtered-namespaces-list")
        .at("/data/namespaces")
        .asText();
  }

  private int count() {
    return cluster.get(API, KIND, "test-ns", PARENT).at("/status/count").asInt();
  }
}
