package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.network.NetworkPolicies;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.children.pod.StatefulSetsTest;
import dev.metahooks.controllers.postgres.children.pod.TlsMounts;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Manifests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The TLS and Network policy sections of docs/postgrescluster/security.md: their examples and variables are what renders. */
class TlsAndNetworkPolicyDocsTest {
  private static String section(String heading) {
    return MarkdownBlocks.section(MarkdownBlocks.page("docs/postgrescluster/security.md"), heading);
  }

  private static List<JsonNode> clusters(String text) {
    List<JsonNode> clusters = new ArrayList<>();
    for (String block : MarkdownBlocks.blocks(text, "yaml")) {
      for (JsonNode document : Manifests.parse(block)) {
        if ("PostgresCluster".equals(document.path("kind").asText())) {
          clusters.add(document);
        }
      }
    }
    return clusters;
  }

  private static ClusterSpec valid(JsonNode cluster) throws IOException {
    List<String> problems = new ArrayList<>();
    PostgresManifestsTest.declared(
        PostgresManifestsTest.specSchema(), cluster.get("spec"), "spec", problems);
    assertThat(problems).isEmpty();
    SpecReader.Result read = SpecReader.read((ObjectNode) cluster);
    assertThat(read.problems()).isEmpty();
    return read.spec();
  }

  @Test
  void theTlsExampleIsValidAndEveryVariableItRendersIsInTheTable() throws IOException {
    String tls = section("TLS");
    List<JsonNode> examples = clusters(tls);
    assertThat(examples).hasSize(1);
    ClusterSpec spec = valid(examples.get(0));
    ObjectNode sts =
        StatefulSets.build(
            "orders",
            "shop",
            spec,
            Json.object(),
            Optional.of(new Tls.Rendering(spec.tls().orElseThrow().secretName(), true, true)),
            spec.instances());
    List<String> base = StatefulSetsTest.envNames(BuilderTestSupport.statefulSet("orders", spec));
    for (String name : StatefulSetsTest.envNames(sts)) {
      if (!base.contains(name)) {
        assertThat(tls).as(name).contains("| `" + name + "` |");
      }
    }
    assertThat(tls).contains(TlsMounts.CLIENT_CA_PATH);
  }

  @Test
  void theNetworkPolicyExampleIsValidAndRendersTheTable() throws IOException {
    String section = section("Network policy");
    List<JsonNode> examples = clusters(section);
    assertThat(examples).hasSize(1);
    ObjectNode policy = NetworkPolicies.build("orders", valid(examples.get(0))).orElseThrow();
    for (JsonNode rule : policy.at("/spec/ingress")) {
      assertThat(section).contains("| " + rule.at("/ports/0/port").asInt() + " (");
    }
  }
}
