package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.ArchiveScope;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Plan, then render, over every golden sync request: rendering reads the plan and changes nothing of it, nor of the
 * observed objects (no builder edits what it was given or what another built), and rendering the same plan twice
 * gives the same children.
 */
class PlanRenderTest {
  @Test
  void renderingLeavesThePlanAndTheObservedObjectsAsTheyWere() throws IOException {
    List<Path> requests;
    try (Stream<Path> files = Files.list(Resources.path("fixtures/postgrescluster/sync"))) {
      requests = files.filter(f -> f.toString().endsWith(".request.json")).sorted().toList();
    }
    assertThat(requests).hasSizeGreaterThan(40);
    for (Path file : requests) {
      ObjectNode body = (ObjectNode) JsonTrees.MAPPER.readTree(file.toFile());
      JsonNode before = body.deepCopy();
      CompositeRequest request = CompositeRequest.read(body, Hook.SYNC);
      SpecReader.Result spec = SpecReader.read(request.parent());
      ObservedCluster observed = ObservedCluster.of(request, spec.spec());
      ClusterPlan plan =
          Planner.sync(request, spec, observed, FixedSources.INSTANCE, ArchiveScope.NAMESPACE);
      JsonNode secrets = keptSecrets(plan);
      Optional<JsonNode> bootstrap = plan.rendering().map(r -> r.pods().bootstrap().deepCopy());
      List<ObjectNode> first = Children.ofSync(plan, observed);
      List<ObjectNode> second = Children.ofSync(plan, observed);
      assertThat(second)
          .as(file.getFileName() + ": the same plan renders the same children")
          .isEqualTo(first);
      assertThat(keptSecrets(plan))
          .as(file.getFileName() + ": the plan's Secrets")
          .isEqualTo(secrets);
      assertThat(plan.rendering().map(r -> (JsonNode) r.pods().bootstrap()))
          .as(file.getFileName() + ": the plan's bootstrap settings")
          .isEqualTo(bootstrap);
      assertThat(body).as(file.getFileName() + ": the request").isEqualTo(before);
    }
  }

  private static JsonNode keptSecrets(ClusterPlan plan) {
    return JsonTrees.MAPPER.valueToTree(
        plan.rendering().map(r -> r.access().credentials().applied()).orElse(java.util.Map.of()));
  }
}
