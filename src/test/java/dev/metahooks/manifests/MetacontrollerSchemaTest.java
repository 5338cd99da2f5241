package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import dev.metahooks.testsupport.Manifests;
import org.junit.jupiter.api.Test;

/** The schema check is Metacontroller's CRD, with the release it follows named, and it refuses what that CRD refuses. */
class MetacontrollerSchemaTest {
  private static JsonNode yaml(String text) {
    return Manifests.parse(text).get(0);
  }

  @Test
  void theCrdsNameTheReleaseAndTheSourcesTheyFollow() {
    String header =
        MetacontrollerSchema.crds()
            .lines()
            .takeWhile(line -> line.startsWith("#"))
            .reduce("", (a, b) -> a + " " + b.substring(1).strip());
    assertThat(header)
        .contains(
            "metacontroller/metacontroller",
            "v4.17.2",
            "pkg/apis/metacontroller/v1alpha1/types.go",
            "manifests/production/metacontroller-crds-v1.yaml");
  }

  @Test
  void aDecoratorAttachmentMayNotCarryStatusChecks() {
    JsonNode decorator =
        yaml(
            """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: DecoratorController
        metadata: {name: d}
        spec:
          resources: [{apiVersion: apps/v1, resource: statefulsets}]
          attachments:
          - apiVersion: v1
            resource: services
            updateStrategy: {method: InPlace, statusChecks: {conditions: [{type: Ready}]}}
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/x/sync"}}}
        """);
    assertThatThrownBy(() -> MetacontrollerSchema.of(decorator).assertValid(decorator))
        .hasMessageContaining("statusChecks");
  }

  @Test
  void aCompositeChildMayAndAnUnknownMethodMayNot() {
    String composite =
        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: c}
        spec:
          parentResource: {apiVersion: ctl.enisoc.com/v1, resource: catsets}
          childResources:
          - apiVersion: v1
            resource: pods
            updateStrategy: {method: %s, statusChecks: {conditions: [{type: Ready, status: "True"}]}}
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/x/sync"}}}
        """;
    JsonNode valid = yaml(composite.formatted("RollingRecreate"));
    assertThatCode(() -> MetacontrollerSchema.of(valid).assertValid(valid))
        .doesNotThrowAnyException();
    JsonNode invalid = yaml(composite.formatted("Rolling"));
    assertThatThrownBy(() -> MetacontrollerSchema.of(invalid).assertValid(invalid))
        .hasMessageContaining("Rolling");
  }
}
