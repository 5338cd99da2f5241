package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Resources;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OfflineHookTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(InputStream in, String... args) {
    return OfflineHook.run(
        args,
        in,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        Catalog.controllers());
  }

  @Test
  void printsTheAnswerOfAFixture() throws Exception {
    byte[] request =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    assertThat(run(new ByteArrayInputStream(request), "sync", "hello-world")).isZero();
    assertThat(
            JsonTrees.MAPPER
                .readTree(out.toByteArray())
                .path("children")
                .get(0)
                .path("metadata")
                .path("name")
                .asText())
        .isEqualTo("your-name");
  }

  @Test
  void aRefusedRequestPrintsTheErrorAndExitsWithTwo() throws Exception {
    assertThat(run(new ByteArrayInputStream("{\"parent\": {}}".getBytes()), "sync", "hello-world"))
        .isEqualTo(2);
    assertThat(JsonTrees.MAPPER.readTree(out.toByteArray()).path("field").asText())
        .isEqualTo("parent.metadata");
  }

  @Test
  void badArgumentsPrintUsage() {
    assertThat(run(InputStream.nullInputStream(), "sink", "hello-world")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:").contains("hello-world");
    assertThat(run(InputStream.nullInputStream(), "sync")).isEqualTo(2);
  }

  @Test
  void anUnknownControllerIsAnError() {
    assertThat(run(new ByteArrayInputStream("{}".getBytes()), "sync", "nope")).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("no controller named 'nope'");
  }

  @Test
  void theServersLimitsHoldOffline() throws Exception {
    byte[] request =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);

    assertThat(
            OfflineHook.run(
                new String[] {"sync", "hello-world"},
                new ByteArrayInputStream(request),
                printed,
                errors,
                Catalog.controllers(),
                ServerConfig.defaults().withMemory(64L << 20, 100)))
        .isEqualTo(2);
    assertThat(JsonTrees.MAPPER.readTree(out.toByteArray()).path("message").asText())
        .contains("METAHOOKS_MAX_RESPONSE_BYTES");

    out.reset();
    assertThat(
            OfflineHook.run(
                new String[] {"sync", "hello-world"},
                new ByteArrayInputStream(request),
                printed,
                errors,
                Catalog.controllers(),
                ServerConfig.defaults().withMaxBodyBytes(100)))
        .isEqualTo(2);
    assertThat(JsonTrees.MAPPER.readTree(out.toByteArray()).path("error").asText())
        .isEqualTo("payload_too_large");
  }
}
