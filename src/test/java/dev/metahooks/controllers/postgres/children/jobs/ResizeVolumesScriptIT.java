package dev.metahooks.controllers.postgres.children.jobs;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.StandInApiServer;
import dev.metahooks.controllers.postgres.plan.VolumeGrowth;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.PostgresServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resize Job's command, as the kubelet starts it, against a stand-in API server over TLS: a merge patch of each
 * claim's request, then the StatefulSet deleted with propagationPolicy Orphan, each with the ServiceAccount's
 * token; a claim already gone is fine, any other refusal fails the Job before the StatefulSet is touched.
 */
class ResizeVolumesScriptIT {
  private static final VolumeGrowth.Plan PLAN =
      new VolumeGrowth.Plan("20Gi", "10Gi", List.of("pgdata-pg-0", "pgdata-pg-1"));

  @Test
  void patchesEachClaimThenDeletesTheStatefulSetOrphaningItsPods(@TempDir Path dir)
      throws Exception {
    try (StandInApiServer api =
        StandInApiServer.start(
            dir, "shop", request -> request.line().contains("pgdata-pg-1") ? 404 : 200)) {
      PostgresServer.Result result = run(api);
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(api.lines())
          .containsExactly(
              "PATCH /api/v1/namespaces/shop/persistentvolumeclaims/pgdata-pg-0 Bearer test-token",
              "PATCH /api/v1/namespaces/shop/persistentvolumeclaims/pgdata-pg-1 Bearer test-token",
              "DELETE /apis/apps/v1/namespaces/shop/statefulsets/pg Bearer test-token");
      StandInApiServer.Request patch = api.requests.get(0);
      assertThat(patch.contentType()).isEqualTo("application/merge-patch+json");
      assertThat(JsonTrees.MAPPER.readTree(patch.body()))
          .isEqualTo(json("{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"20Gi\"}}}}"));
      assertThat(
              JsonTrees.MAPPER
                  .readTree(api.requests.get(2).body())
                  .path("propagationPolicy")
                  .asText())
          .isEqualTo("Orphan");
      assertThat(result.output())
          .contains(
              "PersistentVolumeClaim pgdata-pg-0: requests 20Gi",
              "PersistentVolumeClaim pgdata-pg-1: gone",
              "StatefulSet pg: deleted, its pods orphaned");
    }
  }

  @Test
  void aRefusedPatchFailsTheJobAndLeavesTheStatefulSet(@TempDir Path dir) throws Exception {
    // What the API server answers when the claim's StorageClass does not allow expansion.
    try (StandInApiServer api =
        StandInApiServer.start(
            dir, "shop", request -> request.line().contains("pgdata-pg-1") ? 403 : 200)) {
      PostgresServer.Result result = run(api);
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("PersistentVolumeClaim pgdata-pg-1: HTTP 403");
      assertThat(api.lines()).noneMatch(line -> line.startsWith("DELETE"));
    }
  }

  private static PostgresServer.Result run(StandInApiServer api) throws Exception {
    ObjectNode job = VolumeResize.job("pg", ClusterSpec.DEFAULT_IMAGE, PodScheduling.NONE, PLAN);
    return RenderedContainers.run(
        RenderedContainers.of(job, VolumeResize.CONTAINER, List.of()),
        api.environment(),
        Duration.ofMinutes(1));
  }
}
