package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import dev.metahooks.server.internal.BuildInfo;
import dev.metahooks.testing.KubeSchema;
import dev.metahooks.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * manifests/helm/metahooks, rendered with Helm as a library: with the default values the same objects as the
 * kustomizations, with secure.enabled the same as overlays/secure, and the values change what they say.
 */
class HelmChartTest {
  private static final Path CHART = Manifests.MANIFESTS.resolve("helm/metahooks");
  private static final String NAMESPACE = "metahooks";

  static List<JsonNode> helm(Map<String, Object> values) {
    return helm(NAMESPACE, values);
  }

  static List<JsonNode> helm(String namespace, Map<String, Object> values) {
    TemplateCommand template = new Helm(CHART).template().withName("metahooks").withNamespace(namespace);
    values.forEach(template::set);
    return Manifests.parse(template.call());
  }

  private static List<JsonNode> sorted(List<JsonNode> objects) {
    List<JsonNode> copy = new ArrayList<>(objects);
    copy.sort(Comparator.comparing(HelmChartTest::identity));
    return copy;
  }

  private static String identity(JsonNode o) {
    return o.path("kind").asText() + " " + o.at("/metadata/namespace").asText() + "/" + o.at("/metadata/name").asText();
  }

  private static void assertSameObjects(List<JsonNode> chart, List<JsonNode> kustomize) {
    assertThat(chart.stream().map(HelmChartTest::identity).sorted().toList())
        .containsExactlyElementsOf(kustomize.stream().map(HelmChartTest::identity).sorted().toList());
    List<JsonNode> a = sorted(chart);
    List<JsonNode> b = sorted(kustomize);
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.get(i)).as(identity(a.get(i))).isEqualTo(b.get(i));
    }
  }

  @Test
  void theDefaultValuesRenderWhatTheKustomizationsRenderButTheNamespace() {
    List<JsonNode> kustomize = new ArrayList<>(Rendered.server());
    kustomize.addAll(Manifests.render(Manifests.METACONTROLLER));
    assertSameObjects(helm(Map.of("createNamespace", true)), kustomize);
    // helm install needs the namespace before the release, so by default the chart does not render it
    kustomize.removeIf(o -> o.path("kind").asText().equals("Namespace"));
    assertSameObjects(helm(Map.of()), kustomize);
  }

  @Test
  void theSecureSettingsRenderWhatTheSecureOverlayRenders() {
    assertSameObjects(helm(Map.of("secure.enabled", true, "createNamespace", true)),
        Manifests.render(Manifests.MANIFESTS.resolve("overlays/secure")));
  }

  @Test
  void everyObjectFitsTheKubernetesSchema() {
    for (JsonNode object : helm(Map.of("secure.enabled", true))) {
      if (!object.path("apiVersion").asText().startsWith("metacontroller.k8s.io")) {
        KubeSchema.assertValid(object);
      }
    }
  }

  @Test
  void theValuesSetImageReplicasResourcesSettingsAndNamespace() {
    List<JsonNode> objects = helm("operators", Map.of("image.repository", "registry.example/metahooks",
        "image.tag", "9.9.9", "replicas", 3, "resources.limits.memory", "1Gi", "resources.requests.memory", "1Gi",
        "env.METAHOOKS_LOG_LEVEL", "debug", "createNamespace", true));
    JsonNode deployment = only(objects, "Deployment");
    assertThat(deployment.at("/metadata/namespace").asText()).isEqualTo("operators");
    assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
    JsonNode container = deployment.at("/spec/template/spec/containers/0");
    assertThat(container.path("image").asText()).isEqualTo("registry.example/metahooks:9.9.9");
    assertThat(container.at("/resources/limits/memory").asText()).isEqualTo("1Gi");
    assertThat(container.path("env").toString()).contains("{\"name\":\"METAHOOKS_LOG_LEVEL\",\"value\":\"debug\"}");
    assertThat(only(objects, "Namespace").at("/metadata/name").asText()).isEqualTo("operators");
    for (JsonNode object : objects) {
      object.at("/spec/hooks").forEach(hook -> assertThat(hook.at("/webhook/url").asText())
          .as(identity(object)).startsWith("http://metahooks.operators/"));
    }
    assertThat(only(helm(Map.of()), "Deployment").at("/spec/template/spec/containers/0/image").asText())
        .isEqualTo("ghcr.io/metahooks/metahooks:" + BuildInfo.version());
  }

  @Test
  void onlyTheChosenControllersAndTheirCrdsAreInstalled(@TempDir Path dir) throws Exception {
    Path values = dir.resolve("values.yaml");
    Files.writeString(values, "controllers: [catset, postgrescluster]\n");
    List<JsonNode> objects = Manifests.parse(new Helm(CHART).template().withName("metahooks")
        .withNamespace(NAMESPACE).withValuesFile(values).call());
    assertThat(objects.stream().filter(o -> o.path("kind").asText().endsWith("Controller"))
        .map(o -> o.at("/metadata/name").asText()).sorted().toList())
        .containsExactly("catset-controller", "postgrescluster");
    assertThat(objects.stream().filter(o -> o.path("kind").asText().equals("CustomResourceDefinition"))
        .map(o -> o.at("/metadata/name").asText()).sorted().toList())
        .containsExactly("catsets.ctl.enisoc.com", "postgresclusters.metahooks.dev");
    assertThat(objects).anyMatch(o -> o.path("kind").asText().equals("Deployment"));
  }

  private static JsonNode only(List<JsonNode> objects, String kind) {
    List<JsonNode> found = objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

}
