package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testsupport.Manifests;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The PodMonitor child type comes only with the optional kustomize component or the Helm value: the base
 * controller manifest never declares it (without its CRD the whole CompositeController would stop), and both
 * ways add exactly that one child type and change nothing else.
 */
class PodMonitorComponentIT {
  private static final String POD_MONITORS = "monitoring.coreos.com/v1 podmonitors InPlace";

  @Test
  void theBaseManifestNeverDeclaresPodMonitors() {
    assertThat(childTypes(postgresCluster(Manifests.render(Manifests.METACONTROLLER))))
        .doesNotContain(POD_MONITORS)
        .noneMatch(type -> type.startsWith("monitoring.coreos.com"));
    assertThat(childTypes(postgresCluster(HelmChartIT.helm(Map.of()))))
        .doesNotContain(POD_MONITORS);
  }

  @Test
  void theComponentAndTheHelmValueAddPodMonitorsAndNothingElse() {
    List<JsonNode> base = Manifests.render(Manifests.METACONTROLLER);
    List<JsonNode> withComponent =
        Rendered.withComponent("metacontroller", "postgrescluster-podmonitor");
    JsonNode controller = postgresCluster(withComponent);
    List<String> expected = new java.util.ArrayList<>(childTypes(postgresCluster(base)));
    expected.add(POD_MONITORS);
    assertThat(childTypes(controller)).containsExactlyElementsOf(expected);
    // Every other controller, and every other field of this one, as in the base.
    assertThat(withComponent).hasSameSizeAs(base);
    JsonNode stripped = controller.deepCopy();
    ((com.fasterxml.jackson.databind.node.ArrayNode) stripped.at("/spec/childResources"))
        .remove(expected.size() - 1);
    assertThat(stripped).isEqualTo(postgresCluster(base));

    JsonNode fromHelm =
        postgresCluster(HelmChartIT.helm(Map.of("postgrescluster.podMonitor", true)));
    assertThat(fromHelm).isEqualTo(controller);
  }

  private static JsonNode postgresCluster(List<JsonNode> objects) {
    return objects.stream()
        .filter(
            o ->
                o.path("kind").asText().equals("CompositeController")
                    && o.at("/metadata/name").asText().equals("postgrescluster"))
        .findFirst()
        .orElseThrow();
  }

  private static List<String> childTypes(JsonNode controller) {
    List<String> types = new java.util.ArrayList<>();
    controller
        .at("/spec/childResources")
        .forEach(
            child ->
                types.add(
                    child.path("apiVersion").asText()
                        + " "
                        + child.path("resource").asText()
                        + " "
                        + child.at("/updateStrategy/method").asText()));
    return types;
  }
}
