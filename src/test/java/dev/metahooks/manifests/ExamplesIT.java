package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.ProjectCrds;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The sample custom resources in {@code manifests/examples}: listed, rendered, and valid against their CRDs. */
class ExamplesIT {
  @Test
  void everySampleFileIsListed() {
    List<String> listed = Manifests.listedResources(Manifests.EXAMPLES);
    for (Path file : Manifests.yamlFiles(Manifests.EXAMPLES)) {
      assertThat(listed)
          .as("resources of manifests/examples/kustomization.yaml")
          .contains(file.getFileName().toString());
    }
  }

  @TestFactory
  Stream<DynamicTest> everySampleFitsItsSchema() {
    // Samples bring the built-in objects they need (source ConfigMaps, labelled Namespaces) along.
    return Manifests.render(Manifests.EXAMPLES).stream()
        .map(
            sample ->
                DynamicTest.dynamicTest(
                    sample.path("kind").asText() + " " + sample.at("/metadata/name").asText(),
                    () -> {
                      if (KubeSchema.knows(sample)) {
                        KubeSchema.assertValid(sample);
                      } else {
                        ProjectCrds.forObject(sample).assertValid(sample);
                      }
                    }));
  }

  @Test
  void everyCrdKindHasASample() {
    List<String> sampled =
        Manifests.render(Manifests.EXAMPLES).stream()
            .map(
                s ->
                    s.path("apiVersion").asText().replaceAll("/.*", "")
                        + " "
                        + s.path("kind").asText())
            .toList();
    for (JsonNode crd : ProjectCrds.crds()) {
      assertThat(sampled)
          .as("samples in manifests/examples")
          .contains(crd.at("/spec/group").asText() + " " + crd.at("/spec/names/kind").asText());
    }
  }
}
