package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The image's user and port as the rendered Deployment names them. */
class DockerfileIT {
  @Test
  void runsAsTheNonRootUserAndPortTheDeploymentNames() throws IOException {
    List<DockerfileTest.Instruction> users = DockerfileTest.stage(1, "USER");
    assertThat(users).hasSize(1);
    String[] ids = users.get(0).arguments().split(":");
    assertThat(ids)
        .as("numeric uid:gid, so the kubelet can check runAsNonRoot")
        .hasSize(2)
        .allMatch(id -> id.matches("[0-9]+"));
    assertThat(Integer.parseInt(ids[0])).isPositive();
    JsonNode pod = Rendered.podSpec().path("securityContext");
    assertThat(pod.path("runAsUser").asText()).isEqualTo(ids[0]);
    assertThat(pod.path("runAsGroup").asText()).isEqualTo(ids[1]);

    assertThat(DockerfileTest.stage(1, "EXPOSE"))
        .singleElement()
        .extracting(DockerfileTest.Instruction::arguments)
        .isEqualTo(Rendered.container().at("/ports/0/containerPort").asText());
  }
}
