package dev.metahooks.controllers.postgres.children.jobs;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.StandInApiServer;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restart Job's command, as the kubelet starts it, against a stand-in API server over TLS: one DELETE of the
 * pod with its uid as a precondition and the ServiceAccount's token. A pod already gone (404) or replaced (409, the
 * precondition failed) is done; any other answer fails the Job; a uid that is not one sends nothing.
 */
class RestartMemberScriptIT {
  private static final String UID = "1a50f712-feda-39d7-9936-83b169769965";

  @Test
  void deletesThePodItWasGivenAndNoOther(@TempDir Path dir) throws Exception {
    try (StandInApiServer api = StandInApiServer.start(dir, "shop", request -> 200)) {
      PostgresServer.Result result = run(api, UID);
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(api.lines())
          .containsExactly("DELETE /api/v1/namespaces/shop/pods/pg-1 Bearer test-token");
      assertThat(JsonTrees.MAPPER.readTree(api.requests.get(0).body()).path("preconditions"))
          .isEqualTo(json("{\"uid\":\"" + UID + "\"}"));
      assertThat(result.output()).contains("Pod pg-1 (" + UID + "): deleted");
    }
  }

  @Test
  void aPodAlreadyGoneOrReplacedIsDone(@TempDir Path dir) throws Exception {
    for (int code : new int[] {404, 409}) {
      try (StandInApiServer api =
          StandInApiServer.start(
              Files.createDirectories(dir.resolve(String.valueOf(code))),
              "shop",
              request -> code)) {
        PostgresServer.Result result = run(api, UID);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("already gone or replaced");
      }
    }
  }

  @Test
  void aRefusalFailsTheJob(@TempDir Path dir) throws Exception {
    try (StandInApiServer api = StandInApiServer.start(dir, "shop", request -> 403)) {
      PostgresServer.Result result = run(api, UID);
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("Pod pg-1 (" + UID + "): HTTP 403");
    }
  }

  @Test
  void aUidThatIsNoUidSendsNothing(@TempDir Path dir) throws Exception {
    try (StandInApiServer api = StandInApiServer.start(dir, "shop", request -> 200)) {
      PostgresServer.Result result = run(api, "\",\"x\":\"");
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("is not a Kubernetes uid");
      assertThat(api.requests).isEmpty();
    }
  }

  private static PostgresServer.Result run(StandInApiServer api, String uid) throws Exception {
    ObjectNode job =
        Restarts.job(
            "pg",
            ClusterSpec.DEFAULT_IMAGE,
            PodScheduling.NONE,
            new Rollout.Restart("pg-restart-0123456789", "pg-1", uid));
    return RenderedContainers.run(
        RenderedContainers.of(job, Restarts.CONTAINER, List.of()),
        api.environment(),
        Duration.ofMinutes(1));
  }
}
