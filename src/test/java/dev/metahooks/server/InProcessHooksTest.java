package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.helloworld.HelloWorldController;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Resources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An in-process call answers what the server answers over HTTP for the same bytes: status, Content-Type,
 * Content-Length, ETag and body, byte for byte, for a 200 and for every error the request path can give.
 */
class InProcessHooksTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final String HELLO =
      new String(
          Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json")),
          StandardCharsets.UTF_8);
  private static final long MAX_BODY = 4096;
  private static final Controller PICKY =
      Controller.composite("picky")
          .sync(
              request ->
                  switch (request.parent().path("spec").path("mood").asText()) {
                    case "invalid" ->
                        throw new InvalidRequestException("parent.spec.mood", "is not a mood");
                    case "broken" -> throw new IllegalStateException("a bug in the controller");
                    default -> CompositeResponse.of(Json.object().put("ok", true), List.of());
                  })
          .build();
  private static final List<Controller> CONTROLLERS =
      List.of(HelloWorldController.controller(), PICKY);
  private static final ServerConfig CONFIG =
      ServerConfig.defaults().withPort(0).withMaxBodyBytes(MAX_BODY);

  private static HookServer server;

  @BeforeAll
  static void start() {
    server = new HookServer(CONFIG, CONTROLLERS).start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        Arguments.of("hello-world", "sync", HELLO, 200),
        Arguments.of("picky", "sync", picky("calm"), 200),
        Arguments.of("picky", "sync", picky("invalid"), 422),
        Arguments.of("picky", "sync", picky("broken"), 500),
        Arguments.of("hello-world", "sync", "{\"parent\": ", 400),
        Arguments.of("hello-world", "sync", "[]", 400),
        Arguments.of(
            "hello-world", "sync", "{\"pad\": \"" + "x".repeat((int) MAX_BODY) + "\"}", 413),
        Arguments.of("nobody", "sync", HELLO, 404),
        Arguments.of("picky", "finalize", picky("calm"), 404));
  }

  @ParameterizedTest(name = "{0}/{1} -> {3}")
  @MethodSource("calls")
  void answersAsTheServerDoesOverHttp(String controller, String hook, String body, int status)
      throws Exception {
    InProcessHooks.Response local =
        InProcessHooks.of(CONFIG, CONTROLLERS).call(controller, hook, body);
    HttpResponse<byte[]> remote =
        CLIENT.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/" + controller + "/" + hook))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());

    assertThat(local.status()).as(local.text()).isEqualTo(status).isEqualTo(remote.statusCode());
    assertThat(local.text()).isEqualTo(new String(remote.body(), StandardCharsets.UTF_8));
    for (String header : List.of("Content-Type", "Content-Length", "ETag")) {
      assertThat(local.header(header)).as(header).isEqualTo(remote.headers().firstValue(header));
    }
    assertThat(local.header("etag"))
        .as("ETag on a 200 only")
        .isEqualTo(
            status == 200 ? remote.headers().firstValue("ETag") : java.util.Optional.empty());
  }

  @Test
  void anErrorNamesTheFieldAndTheHookAnswerIsJson() {
    InProcessHooks hooks = InProcessHooks.of(CONTROLLERS);

    assertThat(hooks.call("picky", "sync", picky("invalid")).json().path("field").asText())
        .isEqualTo("parent.spec.mood");
    assertThat(hooks.call("hello-world", "sync", HELLO).json().at("/children/0/kind").asText())
        .isEqualTo("Pod");
  }

  private static String picky(String mood) {
    return "{\"parent\": {\"apiVersion\": \"x/v1\", \"kind\": \"Picky\", \"metadata\": {\"name\": \"p\","
        + " \"namespace\": \"ns\"}, \"spec\": {\"mood\": \""
        + mood
        + "\"}}, \"children\": {}}";
  }
}
