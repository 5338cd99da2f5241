package dev.metahooks.controllers.postgres.children.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.StandInApiServer;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.testsupport.PostgresServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleanup Job's command, as the kubelet starts it, against a stand-in API server over TLS: it deletes each named
 * ConfigMap with the ServiceAccount's token, takes "already gone" as done, and fails on anything else so that
 * the Job retries (and the finalizer stays).
 */
class CleanupScriptIT {
  @Test
  void deletesEachConfigMapWithTheServiceAccountsToken(@TempDir Path dir) {
    try (StandInApiServer api = apiServer(dir, 404)) {
      PostgresServer.Result result = run(api, List.of("pg-config", "pg-leader"));
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(api.requests)
          .extracting(StandInApiServer.Request::line)
          .containsExactly(
              "DELETE /api/v1/namespaces/shop/configmaps/pg-config Bearer test-token",
              "DELETE /api/v1/namespaces/shop/configmaps/pg-leader Bearer test-token");
      assertThat(result.output())
          .contains("ConfigMap pg-config: gone", "ConfigMap pg-leader: gone");
    }
  }

  @Test
  void anyOtherAnswerFailsTheJob(@TempDir Path dir) {
    try (StandInApiServer api = apiServer(dir, 403)) {
      PostgresServer.Result result = run(api, List.of("pg-config", "pg-leader"));
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("ConfigMap pg-leader: HTTP 403");
    }
  }

  private static PostgresServer.Result run(StandInApiServer api, List<String> configMaps) {
    ObjectNode job = Cleanup.job("pg", ClusterSpec.DEFAULT_IMAGE, PodScheduling.NONE, configMaps);
    return RenderedContainers.run(
        RenderedContainers.of(job, Cleanup.CONTAINER, List.of()),
        api.environment(),
        Duration.ofMinutes(1));
  }

  /** Answers 200 to the first ConfigMap DELETE and {@code otherwise} to the rest. */
  private static StandInApiServer apiServer(Path dir, int otherwise) {
    AtomicInteger calls = new AtomicInteger();
    return StandInApiServer.start(
        dir, "shop", request -> calls.incrementAndGet() == 1 ? 200 : otherwise);
  }
}
