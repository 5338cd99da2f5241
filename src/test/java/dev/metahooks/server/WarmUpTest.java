package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.HttpStack;
import dev.metahooks.server.internal.TrainingCalls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up before readiness: the training requests the jar ships are valid hook requests for every served hook,
 * the server serves them before it is ready, and none of them shows in its metrics, access log, response cache or
 * recordings; a training call that fails never stops the start.
 */
class WarmUpTest {
  private static final String VARIABLE = "METAHOOKS_WARM_UP_MS";
  private static final Duration SHORT = Duration.ofMillis(300);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void everyBuiltInHookShipsATrainingRequestThatTheFrontDoorAnswersWith200() {
    InProcessHooks hooks = InProcessHooks.of(Catalog.controllers());
    int requests = 0;
    for (Controller controller : Catalog.controllers()) {
      for (Hook hook : controller.hooks()) {
        byte[] request = TrainingCalls.request(controller.name(), hook.path());
        assertThat(request)
            .as("warm-up/%s/%s.request.json", controller.name(), hook.path())
            .isNotNull();
        InProcessHooks.Response answer = hooks.call(controller.name(), hook.path(), request);
        assertThat(answer.status())
            .as("%s %s: %s", controller.name(), hook.path(), answer.text())
            .isEqualTo(200);
        requests++;
      }
    }
    assertThat(TrainingCalls.of(Catalog.controllers()).calls()).hasSize(requests);
  }

  @Test
  void theServerIsReadyAfterTheTrainingCallsAndCountsNoneOfThem(@TempDir Path recordings)
      throws Exception {
    ServerConfig config =
        ServerConfig.defaults()
            .withPort(0)
            .withRecording(ServerConfig.Recording.OFF.in(recordings))
            .toBuilder()
            .warmUp(SHORT)
            .build();
    try (HookServer server = new HookServer(config, Catalog.controllers()).start()) {
      TrainingCalls.Summary done = server.warmedUp();
      assertThat(done.calls()).isPositive();
      assertThat(done.refused()).isZero();
      assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
      String metrics = get(server, "/metrics").body();
      assertThat(counts(metrics, "metahooks_hook_requests_total"))
          .as(metrics)
          .isNotEmpty()
          .containsOnly(0.0);
      assertThat(counts(metrics, "metahooks_response_cache_lookups_total"))
          .isNotEmpty()
          .containsOnly(0.0);
      assertThat(counts(metrics, "metahooks_response_cache_bytes")).containsOnly(0.0);
      assertThat(server.recordedCalls()).isZero();
      try (var files = Files.list(recordings)) {
        assertThat(files).isEmpty();
      }
      assertThat(server.connectorNames()).doesNotContain(HttpStack.WARM_UP);

      HttpResponse<String> call =
          post(server, "/hello-world/sync", TrainingCalls.request("hello-world", "sync"));
      assertThat(call.statusCode()).isEqualTo(200);
      String after = get(server, "/metrics").body();
      assertThat(after)
          .contains(
              "metahooks_hook_requests_total{controller=\"hello-world\",hook=\"sync\",outcome=\"ok\"} 1.0");
    }
  }

  @Test
  void aBearerTokenDoesNotKeepTheTrainingCallsOut(@TempDir Path dir) throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "s3cret");
    ServerConfig config =
        ServerConfig.fromEnvironment(
            Map.of(
                "METAHOOKS_PORT",
                "0",
                "METAHOOKS_TOKEN_FILE",
                token.toString(),
                "METAHOOKS_WARM_UP_MS",
                Long.toString(SHORT.toMillis())));
    try (HookServer server = new HookServer(config, Catalog.controllers()).start()) {
      assertThat(server.warmedUp().refused()).isZero();
      assertThat(
              post(server, "/hello-world/sync", TrainingCalls.request("hello-world", "sync"))
                  .statusCode())
          .isEqualTo(401);
    }
  }

  @Test
  void aFailingTrainingCallIsLoggedAndTheServerGetsReadyAllTheSame() throws Exception {
    Controller failing =
        Controller.composite("hello-world")
            .sync(
                request -> {
                  throw new IllegalStateException("broken");
                })
            .build();
    try (HookServer server =
        new HookServer(
                ServerConfig.defaults().withPort(0).toBuilder().warmUp(SHORT).build(),
                List.of(failing))
            .start()) {
      assertThat(server.warmedUp().refused())
          .isPositive(); // each warm-up thread stops at its first failure
      assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
      assertThat(counts(get(server, "/metrics").body(), "metahooks_hook_requests_total"))
          .containsOnly(0.0);
    }
  }

  @Test
  void theSettingIsMillisecondsOfServerConfigWithADefaultAndZeroTurnsItOff() {
    assertThat(ServerConfig.fromEnvironment(Map.of()).warmUp()).isEqualTo(Duration.ofSeconds(5));
    assertThat(ServerConfig.fromEnvironment(Map.of(VARIABLE, "0")).warmUp()).isZero();
    assertThat(ServerConfig.fromEnvironment(Map.of(VARIABLE, " 1500 ")).warmUp())
        .isEqualTo(Duration.ofMillis(1500));
    assertThat(ServerConfig.defaults().warmUp())
        .as("built in code: ready as soon as it listens")
        .isZero();
    for (String wrong : List.of("-1", "60001", "2s")) {
      assertThatThrownBy(() -> ServerConfig.fromEnvironment(Map.of(VARIABLE, wrong)))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining(VARIABLE);
    }
    assertThatThrownBy(() -> ServerConfig.builder().warmUp(Duration.ofSeconds(61)).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("METAHOOKS_WARM_UP_MS must be 0..60000, got 61000");
    assertThat(ServerConfig.variables()).contains(VARIABLE);
  }

  @Test
  void withoutAWarmUpThereIsNoInMemoryConnector() {
    try (HookServer server =
        new HookServer(ServerConfig.defaults().withPort(0), Catalog.controllers()).start()) {
      assertThat(server.warmedUp()).isNull();
      assertThat(server.connectorNames()).doesNotContain(HttpStack.WARM_UP);
    }
  }

  private static List<Double> counts(String metrics, String name) {
    Matcher sample = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*})? (\\S+)$").matcher(metrics);
    List<Double> values = new java.util.ArrayList<>();
    while (sample.find()) {
      values.add(Double.parseDouble(sample.group(1)));
    }
    return values;
  }

  private static HttpResponse<String> get(HookServer server, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(HookServer server, String path, byte[] body)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
