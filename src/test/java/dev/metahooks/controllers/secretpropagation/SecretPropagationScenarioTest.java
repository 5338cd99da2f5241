package dev.metahooks.controllers.secretpropagation;

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
 * secret-propagation end to end: the real manifest (a cluster-scoped parent whose customize hook selects the
 * target Namespaces by the spec's label selector) and the example, under the emulated Metacontroller. Mirrors
 * Metacontroller's examples/secretpropagation/test.sh, checks what its README promises for {@code gamma}, and
 * goes on to relabelled namespaces.
 */
class SecretPropagationScenarioTest {
  private static final String API = "examples.metacontroller.io/v1alpha1";
  private static final String KIND = "SecretPropagation";
  private static final String PARENT = "secret-propagation";
  private static final String CONTROLLER = "secret-propagation-controller";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/secret-propagation.yaml");
    cluster.createFile("manifests/examples/secret-propagation.yaml");
  }

  @AfterEach
  void settlesWithValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void copiesTheSecretIntoTheLabelledNamespacesOnly() {
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("alpha", "beta");
    for (String namespace : List.of("alpha", "beta")) {
      ObjectNode copy = cluster.get("v1", "Secret", namespace, "shareable");
      assertThat(copy.get("data")).isEqualTo(source().get("data"));
      assertThat(copy.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo(KIND);
    }
    assertThat(cluster.list("v1", "Secret", "gamma")).isEmpty();
    assertThat(cluster.get(API, KIND, PARENT).at("/status/working").asText()).isEqualTo("fine");
  }

  @Test
  void labellingANamespaceAddsItsCopy() {
    mc.runUntilStable(10);

    setPropagateLabel("gamma", "true");
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("alpha", "beta", "gamma");
    assertThat(cluster.get("v1", "Secret", "gamma", "shareable").get("data"))
        .isEqualTo(source().get("data"));
  }

  @Test
  void unlabellingANamespaceRemovesItsCopy() {
    mc.runUntilStable(10);

    setPropagateLabel("beta", null);
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("alpha");
  }

  @Test
  void aLabelValueOutsideTheSelectorRemovesTheCopy() {
    mc.runUntilStable(10);

    setPropagateLabel("alpha", "false");
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("beta");
  }

  @Test
  void changingTheSelectorMovesTheCopies() {
    cluster.create(
        "{apiVersion: v1, kind: Namespace, metadata: {name: delta, labels: {team: blue}}}");
    mc.runUntilStable(10);

    cluster.update(
        API,
        KIND,
        "",
        PARENT,
        parent ->
            parent
                .withObject("/spec")
                .putObject("targetNamespaceLabelSelector")
                .putObject("matchLabels")
                .put("team", "blue"));
    mc.runUntilStable(10);

    assertThat(namespacesWithACopy()).containsExactly("delta");
  }

  private ObjectNode source() {
    return cluster.get("v1", "Secret", "omega", "shareable");
  }

  /** Sets (or with null removes) the label propagate of a namespace. */
  private void setPropagateLabel(String namespace, String value) {
    cluster.update(
        "v1",
        "Namespace",
        "",
        namespace,
        ns -> {
          ObjectNode labels = ns.withObject("/metadata/labels");
          if (value == null) {
            labels.remove("propagate");
          } else {
            labels.put("propagate", value);
          }
        });
  }

  /** The namespaces, other than the source's, that hold a Secret shareable. */
  private List<String> namespacesWithACopy() {
    return cluster.list("v1", "Secret").stream()
        .filter(secret -> secret.at("/metadata/name").asText().equals("shareable"))
        .map(secret -> secret.at("/metadata/namespace").asText())
        .filter(namespace -> !namespace.equals("omega"))
        .toList();
  }
}
