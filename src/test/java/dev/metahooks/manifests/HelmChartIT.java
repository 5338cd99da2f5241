package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import dev.metahooks.server.internal.BuildInfo;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Manifests;
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
 * kustomizations (but for the annotation that keeps each CRD), with secure.enabled the same as overlays/secure, and
 * the values change what they say.
 */
class HelmChartIT {
  private static final Path CHART = Manifests.MANIFESTS.resolve("helm/metahooks");
  private static final String NAMESPACE = "metahooks";

  /**
   * Helm skips an object with this annotation set to {@code keep} on uninstall and when an upgrade or rollback
   * drops it (helm.sh/helm/v3 v3.22.1 pkg/kube/resource_policy.go:20-27; the chart's templates/crds.yaml says
   * where each is read). The upgrade's check compares the live value with {@code keep} exactly (pkg/kube/client.go:459).
   */
  private static final String RESOURCE_POLICY = "helm.sh/resource-policy";

  static List<JsonNode> helm(Map<String, Object> values) {
    return helm(NAMESPACE, values);
  }

  static List<JsonNode> helm(String namespace, Map<String, Object> values) {
    TemplateCommand template =
        new Helm(CHART).template().withName("metahooks").withNamespace(namespace);
    values.forEach(template::set);
    return Manifests.parse(template.call());
  }

  private static List<JsonNode> sorted(List<JsonNode> objects) {
    List<JsonNode> copy = new ArrayList<>(objects);
    copy.sort(Comparator.comparing(HelmChartIT::identity));
    return copy;
  }

  private static String identity(JsonNode o) {
    return o.path("kind").asText()
        + " "
        + o.at("/metadata/namespace").asText()
        + "/"
        + o.at("/metadata/name").asText();
  }

  private static void assertSameObjects(List<JsonNode> chart, List<JsonNode> kustomize) {
    assertThat(chart.stream().map(HelmChartIT::identity).sorted().toList())
        .containsExactlyElementsOf(kustomize.stream().map(HelmChartIT::identity).sorted().toList());
    List<JsonNode> a = sorted(chart);
    List<JsonNode> b = sorted(kustomize);
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.get(i)).as(identity(a.get(i))).isEqualTo(b.get(i));
    }
  }

  private static boolean isCrd(JsonNode o) {
    return o.path("kind").asText().equals("CustomResourceDefinition");
  }

  /** The kustomize objects as the chart renders them: every CRD with the resource policy that keeps it. */
  private static List<JsonNode> keptByHelm(List<JsonNode> kustomize) {
    List<JsonNode> objects = new ArrayList<>();
    for (JsonNode object : kustomize) {
      JsonNode copy = object.deepCopy();
      if (isCrd(copy)) {
        ((ObjectNode) copy.path("metadata"))
            .withObjectProperty("annotations")
            .put(RESOURCE_POLICY, "keep");
      }
      objects.add(copy);
    }
    return objects;
  }

  @Test
  void theDefaultValuesRenderWhatTheKustomizationsRenderButTheNamespace() {
    List<JsonNode> kustomize = new ArrayList<>(Rendered.server());
    kustomize.addAll(Manifests.render(Manifests.METACONTROLLER));
    assertSameObjects(helm(Map.of("createNamespace", true)), keptByHelm(kustomize));
    // helm install needs the namespace before the release, so by default the chart does not render
    // it
    kustomize.removeIf(o -> o.path("kind").asText().equals("Namespace"));
    assertSameObjects(helm(Map.of()), keptByHelm(kustomize));
  }

  @Test
  void theSecureSettingsRenderWhatTheSecureOverlayRenders() {
    assertSameObjects(
        helm(Map.of("secure.enabled", true, "createNamespace", true)),
        keptByHelm(Manifests.render(Manifests.MANIFESTS.resolve("overlays/secure"))));
  }

  /**
   * Deleting a CRD deletes every object of it, so Helm must never delete one: not on uninstall, not when an upgrade
   * narrows {@code controllers}. Every CRD the chart renders says keep, and nothing else does (else uninstall would
   * leave the hook server behind).
   */
  @Test
  void everyRenderedCrdCarriesTheResourcePolicyThatKeepsIt(@TempDir Path dir) throws Exception {
    Path narrowed = dir.resolve("values.yaml");
    Files.writeString(narrowed, "controllers: [postgrescluster]\n");
    List<List<JsonNode>> renders =
        List.of(
            helm(Map.of()),
            helm(Map.of("secure.enabled", true)),
            Manifests.parse(
                new Helm(CHART)
                    .template()
                    .withName("metahooks")
                    .withNamespace(NAMESPACE)
                    .withValuesFile(narrowed)
                    .call()));
    for (List<JsonNode> objects : renders) {
      assertThat(objects).anyMatch(HelmChartIT::isCrd);
      for (JsonNode object : objects) {
        JsonNode policy = object.at("/metadata/annotations").path(RESOURCE_POLICY);
        if (isCrd(object)) {
          assertThat(policy.isTextual() && policy.asText().equals("keep"))
              .as("%s says %s: keep", identity(object), RESOURCE_POLICY)
              .isTrue();
        } else {
          assertThat(policy.isMissingNode())
              .as("%s has no %s", identity(object), RESOURCE_POLICY)
              .isTrue();
        }
      }
    }
  }

  @Test
  void withoutInstallCrdsNoCrdIsRendered() {
    List<JsonNode> objects = helm(Map.of("installCrds", false));
    assertThat(objects).noneMatch(HelmChartIT::isCrd);
    assertThat(objects).anyMatch(o -> o.path("kind").asText().equals("CompositeController"));
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
    List<JsonNode> objects =
        helm(
            "operators",
            Map.of(
                "image.repository",
                "registry.example/metahooks",
                "image.tag",
                "9.9.9",
                "replicas",
                3,
                "resources.limits.memory",
                "1Gi",
                "resources.requests.memory",
                "1Gi",
                "env.METAHOOKS_LOG_LEVEL",
                "debug",
                "createNamespace",
                true));
    JsonNode deployment = only(objects, "Deployment");
    assertThat(deployment.at("/metadata/namespace").asText()).isEqualTo("operators");
    assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
    JsonNode container = deployment.at("/spec/template/spec/containers/0");
    assertThat(container.path("image").asText()).isEqualTo("registry.example/metahooks:9.9.9");
    assertThat(container.at("/resources/limits/memory").asText()).isEqualTo("1Gi");
    assertThat(container.path("env").toString())
        .contains("{\"name\":\"METAHOOKS_LOG_LEVEL\",\"value\":\"debug\"}");
    assertThat(only(objects, "Namespace").at("/metadata/name").asText()).isEqualTo("operators");
    for (JsonNode object : objects) {
      object
          .at("/spec/hooks")
          .forEach(
              hook ->
                  assertThat(hook.at("/webhook/url").asText())
                      .as(identity(object))
                      .startsWith("http://metahooks.operators/"));
    }
    assertThat(
            only(helm(Map.of()), "Deployment")
                .at("/spec/template/spec/containers/0/image")
                .asText())
        .isEqualTo("ghcr.io/metahooks/metahooks:" + BuildInfo.version());
  }

  @Test
  void onlyTheChosenControllersAndTheirCrdsAreInstalled(@TempDir Path dir) throws Exception {
    Path values = dir.resolve("values.yaml");
    Files.writeString(values, "controllers: [catset, postgrescluster]\n");
    List<JsonNode> objects =
        Manifests.parse(
            new Helm(CHART)
                .template()
                .withName("metahooks")
                .withNamespace(NAMESPACE)
                .withValuesFile(values)
                .call());
    assertThat(
            objects.stream()
                .filter(o -> o.path("kind").asText().endsWith("Controller"))
                .map(o -> o.at("/metadata/name").asText())
                .sorted()
                .toList())
        .containsExactly("catset-controller", "postgrescluster");
    assertThat(
            objects.stream()
                .filter(o -> o.path("kind").asText().equals("CustomResourceDefinition"))
                .map(o -> o.at("/metadata/name").asText())
                .sorted()
                .toList())
        .containsExactly("catsets.ctl.enisoc.com", "postgresclusters.metahooks.dev");
    assertThat(objects).anyMatch(o -> o.path("kind").asText().equals("Deployment"));
  }

  private static JsonNode only(List<JsonNode> objects, String kind) {
    List<JsonNode> found =
        objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }
}
