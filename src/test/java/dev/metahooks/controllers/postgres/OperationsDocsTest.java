package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Manifests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/postgrescluster/operations.md's Monitoring and Connection pooling sections, rendered by the hook. */
class OperationsDocsTest {
  @Test
  void theMonitoringExampleRendersTheSidecarAndTheMetricsService() throws IOException {
    JsonNode answer = render(blocks("Monitoring", "yaml").get(0));
    assertThat(names(answer))
        .contains("Service/orders-metrics", "Secret/orders-exporter")
        .doesNotContain("PodMonitor/orders");
    assertThat(answer.toString()).contains("\"name\":\"exporter\"", "\"containerPort\":9187");
  }

  @Test
  void thePoolingExampleRendersThePgbouncerIniShownInTheDocs() throws IOException {
    JsonNode answer = render(blocks("Connection pooling", "yaml").get(0));
    assertThat(names(answer))
        .contains(
            "Deployment/orders-pooler",
            "Service/orders-pooler",
            "ConfigMap/orders-pooler",
            "PodDisruptionBudget/orders.pooler",
            "Secret/orders-pooler");
    String ini = null;
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals("ConfigMap")) {
        ini = child.at("/data/pgbouncer.ini").asText();
      }
    }
    assertThat(ini).isEqualTo(blocks("Connection pooling", "ini").get(0));
  }

  private static JsonNode render(String yaml) {
    JsonNode resource = Manifests.parse(yaml).get(0);
    ObservedRequests world =
        new ObservedRequests(
            resource.at("/metadata/name").asText(), (ObjectNode) resource.get("spec"));
    assertThat(resource.at("/metadata/namespace").asText()).isEqualTo(ObservedRequests.NAMESPACE);
    JsonNode answer = world.sync();
    assertThat(answer.toString()).doesNotContain("InvalidSpec");
    return answer;
  }

  private static List<String> names(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer.path("children").forEach(c -> names.add(c.path("kind").asText() + "/" + Names.of(c)));
    return names;
  }

  /** The fenced blocks of one language in one section of the operations page. */
  static List<String> blocks(String heading, String language) {
    List<String> blocks =
        MarkdownBlocks.blocks("docs/postgrescluster/operations.md", heading, language);
    assertThat(blocks).as("%s blocks in %s", language, heading).isNotEmpty();
    return blocks;
  }
}
