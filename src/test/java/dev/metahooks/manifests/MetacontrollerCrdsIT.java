package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * controlplane/metacontroller-crds.yaml: Metacontroller v4.17.2's own CRDs, which a test control plane applies
 * before metacontroller/ and the kit's MetacontrollerSchema reads. Every controller the project ships (kustomize
 * and Helm, plain and secure) fits them, and they refuse what Metacontroller's Go types have no field for.
 */
class MetacontrollerCrdsIT {
  private static final Path FILE =
      Resources.projectDir().resolve("controlplane/metacontroller-crds.yaml");
  private static final String VERSION = "v1alpha1";

  private static List<JsonNode> crds() {
    return Manifests.read(FILE);
  }

  private static JsonNode crd(String kind) {
    return crds().stream()
        .filter(c -> c.at("/spec/names/kind").asText().equals(kind))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no CRD of kind " + kind + " in " + FILE));
  }

  private static CrdSchema schema(String kind) {
    return CrdSchema.of(crd(kind), VERSION);
  }

  private static JsonNode yaml(String text) {
    return Manifests.parse(text).get(0);
  }

  /** Scope, names and short names as types.go's kubebuilder markers give them (lines 28, 345, 372). */
  @Test
  void theFileHoldsTheThreeCrdsWithMetacontrollersNames() {
    Map<String, String> scopeAndShortNames = new LinkedHashMap<>();
    for (JsonNode crd : crds()) {
      JsonNode names = crd.at("/spec/names");
      assertThat(crd.at("/metadata/name").asText())
          .isEqualTo(names.path("plural").asText() + ".metacontroller.k8s.io");
      assertThat(crd.at("/spec/group").asText()).isEqualTo("metacontroller.k8s.io");
      assertThat(names.path("singular").asText())
          .isEqualTo(names.path("kind").asText().toLowerCase());
      assertThat(names.path("listKind").asText()).isEqualTo(names.path("kind").asText() + "List");
      // the API server refuses a CRD of a *.k8s.io group without it (apiextensions-apiserver
      // v0.36.3
      // pkg/apihelpers/helpers.go:58-73: a reason starting with "unapproved" is let through)
      assertThat(crd.at("/metadata/annotations/api-approved.kubernetes.io").asText())
          .startsWith("unapproved");
      JsonNode versions = crd.at("/spec/versions");
      assertThat(versions).hasSize(1);
      assertThat(versions.get(0).path("name").asText()).isEqualTo(VERSION);
      assertThat(
              versions.get(0).path("served").asBoolean()
                  && versions.get(0).path("storage").asBoolean())
          .isTrue();
      assertThat(versions.get(0).at("/subresources/status").isObject())
          .as("status subresource")
          .isTrue();
      scopeAndShortNames.put(
          names.path("kind").asText(),
          crd.at("/spec/scope").asText() + " " + names.path("shortNames"));
    }
    assertThat(scopeAndShortNames)
        .containsExactly(
            Map.entry("CompositeController", "Cluster [\"cc\",\"cctl\"]"),
            Map.entry("DecoratorController", "Cluster [\"dec\",\"decorators\"]"),
            Map.entry("ControllerRevision", "Namespaced "));
  }

  @Test
  void theKitChecksControllersAgainstThisFile() throws IOException {
    assertThat(MetacontrollerSchema.crds()).isEqualTo(Files.readString(FILE));
  }

  /** Every CompositeController and DecoratorController of kustomize and Helm, plain and secure. */
  @TestFactory
  Stream<DynamicTest> everyControllerTheProjectShipsFitsTheCrds() {
    Map<String, List<JsonNode>> sources = new LinkedHashMap<>();
    sources.put("metacontroller/", Manifests.render(Manifests.METACONTROLLER));
    sources.put(
        "overlays/secure", Manifests.render(Manifests.MANIFESTS.resolve("overlays/secure")));
    sources.put("helm", HelmChartIT.helm(Map.of()));
    sources.put("helm secure.enabled", HelmChartIT.helm(Map.of("secure.enabled", true)));
    List<DynamicTest> tests = new ArrayList<>();
    int withEndpointConfigs = 0;
    for (Map.Entry<String, List<JsonNode>> source : sources.entrySet()) {
      for (JsonNode object : source.getValue()) {
        if (object.path("apiVersion").asText().startsWith("metacontroller.k8s.io/")) {
          withEndpointConfigs += object.at("/spec/endpointConfigs").isEmpty() ? 0 : 1;
          String name =
              source.getKey()
                  + ": "
                  + object.path("kind").asText()
                  + " "
                  + object.at("/metadata/name").asText();
          tests.add(
              DynamicTest.dynamicTest(
                  name, () -> schema(object.path("kind").asText()).assertValid(object)));
        }
      }
    }
    assertThat(tests).as("controllers").hasSizeGreaterThan(4 * 10);
    assertThat(withEndpointConfigs)
        .as("secure controllers, whose endpointConfigs are checked too")
        .isPositive();
    return tests.stream();
  }

  @Test
  void anEndpointConfigFitsOnlyAsTheGoTypesHaveIt() {
    String controller =
        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: DecoratorController
        metadata: {name: d}
        spec:
          resources: [{apiVersion: v1, resource: pods}]
          hooks: {sync: {version: v2, webhook: {url: "https://metahooks.metahooks/x/sync"}}}
          endpointConfigs:
          - %s
        """;
    JsonNode valid =
        yaml(
            controller.formatted(
                "{host: metahooks.metahooks, authorization: {secretRef: {name: s, namespace: n, key: token}}}"));
    assertThatCode(() -> schema("DecoratorController").assertValid(valid))
        .doesNotThrowAnyException();
    // Authorization.Type defaults to Bearer (types.go:221)
    assertThat(
            schema("DecoratorController")
                .withDefaults(valid)
                .at("/spec/endpointConfigs/0/authorization/type")
                .asText())
        .isEqualTo("Bearer");
    JsonNode noHost = yaml(controller.formatted("{caBundle: {inline: pem}}"));
    assertThatThrownBy(() -> schema("DecoratorController").assertValid(noHost))
        .hasMessageContaining("host");
    JsonNode noKey =
        yaml(
            controller.formatted(
                "{host: metahooks.metahooks, authorization: {secretRef: {name: s, namespace: n}}}"));
    assertThatThrownBy(() -> schema("DecoratorController").assertValid(noKey))
        .hasMessageContaining("key");
    JsonNode headers =
        yaml(controller.formatted("{host: metahooks.metahooks, headers: {X-Token: t}}"));
    assertThatThrownBy(() -> schema("DecoratorController").assertValid(headers))
        .hasMessageContaining("headers");
  }

  @Test
  void aHookVersionIsV1OrV2() {
    String controller =
        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: c}
        spec:
          parentResource: {apiVersion: ctl.enisoc.com/v1, resource: catsets}
          hooks: {sync: {%s webhook: {url: "http://metahooks.metahooks/catset/sync"}}}
        """;
    JsonNode unversioned = yaml(controller.formatted(""));
    assertThat(
            schema("CompositeController")
                .withDefaults(unversioned)
                .at("/spec/hooks/sync/version")
                .asText())
        .isEqualTo("v1");
    JsonNode v3 = yaml(controller.formatted("version: v3,"));
    assertThatThrownBy(() -> schema("CompositeController").assertValid(v3))
        .hasMessageContaining("v3");
  }

  /** What Metacontroller writes for a rolling update (types.go:347-359): any parent patch, children by name. */
  @Test
  void aControllerRevisionNeedsItsParentPatch() {
    String revision =
        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: ControllerRevision
        metadata: {name: catset-abc, namespace: default}
        %s
        children: [{apiGroup: "", kind: Pod, names: [web-0, web-1]}]
        """;
    JsonNode valid =
        yaml(revision.formatted("parentPatch: {spec: {template: {metadata: {labels: {a: b}}}}}"));
    assertThatCode(() -> schema("ControllerRevision").assertValid(valid))
        .doesNotThrowAnyException();
    JsonNode noPatch = yaml(revision.formatted(""));
    assertThatThrownBy(() -> schema("ControllerRevision").assertValid(noPatch))
        .hasMessageContaining("parentPatch");
  }
}
