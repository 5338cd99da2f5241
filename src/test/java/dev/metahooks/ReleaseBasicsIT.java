package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testsupport.Manifests;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The release's image as the rendered manifests name it. */
class ReleaseBasicsIT {
  @Test
  void theImageIsSetOnceAndItsTagIsTheVersion() throws Exception {
    JsonNode images =
        Manifests.read(Manifests.MANIFESTS.resolve("base/kustomization.yaml"))
            .get(0)
            .path("images");
    assertThat(images).hasSize(1);
    assertThat(images.get(0).path("name").asText()).isEqualTo(ReleaseBasicsTest.IMAGE);
    assertThat(images.get(0).path("newTag").asText()).isEqualTo(ReleaseBasicsTest.pomVersion());
    String deployment = Files.readString(Manifests.MANIFESTS.resolve("base/deployment.yaml"));
    assertThat(deployment)
        .as("the Deployment names the image without a tag")
        .contains("image: " + ReleaseBasicsTest.IMAGE + " ")
        .doesNotContain(ReleaseBasicsTest.IMAGE + ":");
    JsonNode container =
        Manifests.render(Manifests.MANIFESTS).stream()
            .filter(o -> o.path("kind").asText().equals("Deployment"))
            .findFirst()
            .orElseThrow()
            .at("/spec/template/spec/containers/0");
    assertThat(container.path("image").asText())
        .isEqualTo(ReleaseBasicsTest.IMAGE + ":" + ReleaseBasicsTest.pomVersion());
  }
}
