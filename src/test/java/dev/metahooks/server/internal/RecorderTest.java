package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** METAHOOKS_RECORD_DIR: sampled 200 answers on disk, Secrets redacted yet replayable, bounded. */
class RecorderTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final Path PG_STARTING =
      Resources.path("fixtures/postgrescluster/sync/02-dev-pod-starting.request.json");
  private static final Path HELLO =
      Resources.path("fixtures/hello-world/sync/01-first-sync.request.json");

  @TempDir Path dir;

  private static int post(HookServer server, String path, byte[] body) throws Exception {
    return CLIENT
        .send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private HookServer server(ServerConfig.Recording recording) {
    return new HookServer(
            ServerConfig.defaults().withPort(0).withResponseCacheBytes(0).withRecording(recording),
            Catalog.controllers(FixedSources.INSTANCE))
        .start();
  }

  private List<Path> recordings() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
    }
  }

  @Test
  void recordsAnsweredCallsWithSecretsRedactedAndTheRecordingReplays() throws Exception {
    byte[] request = Resources.bytes(PG_STARTING);
    try (HookServer server = server(ServerConfig.Recording.OFF.in(dir))) {
      assertThat(post(server, "/postgrescluster/sync", request)).isEqualTo(200);
      assertThat(post(server, "/postgrescluster/sync", "{}".getBytes()))
          .isEqualTo(422); // refused: not recorded
      Poll.until("one recording", () -> recordings().size() == 1);
    }
    Path file = recordings().get(0);
    assertThat(file.getFileName().toString()).endsWith("-postgrescluster-sync.json");
    String text = Files.readString(file);
    // passwords, keys and their encodings (short values such as a user name "patroni" recur in
    // other objects)
    List<String> secrets =
        Redaction.secretValues(JsonTrees.MAPPER.readTree(request)).stream()
            .filter(v -> v.length() >= 16)
            .toList();
    assertThat(secrets).isNotEmpty();
    for (String secret : secrets) {
      assertThat(text).as("a Secret value of the request").doesNotContain(secret);
    }
    JsonNode recording = JsonTrees.MAPPER.readTree(text);
    assertThat(recording.path("controller").asText()).isEqualTo("postgrescluster");
    assertThat(recording.path("hook").asText()).isEqualTo("sync");
    assertThat(recording.path("version").asText()).isEqualTo(BuildInfo.version());
    JsonNode secretChildren = recording.at("/request/children/Secret.v1");
    assertThat(secretChildren.size()).isPositive();
    secretChildren.forEach(
        secret -> {
          assertThat(secret.path("kind").asText()).isEqualTo("Secret");
          secret
              .path("data")
              .forEach(v -> assertThat(v.asText()).isEqualTo(Redaction.REDACTED_BASE64));
        });
    recording
        .path("response")
        .path("children")
        .forEach(
            child -> {
              if (child.path("kind").asText().equals("Secret")) {
                child
                    .path("data")
                    .forEach(v -> assertThat(v.asText()).isEqualTo(Redaction.REDACTED_BASE64));
              }
            });
    // the redacted request is still a request the hook answers
    Reply replay =
        FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE))
            .call(
                "postgrescluster",
                "sync",
                JsonTrees.MAPPER.writeValueAsBytes(recording.get("request")));
    assertThat(replay.status()).isEqualTo(200);
  }

  @Test
  void keepsAtMostMaxFilesTheNewest() throws Exception {
    byte[] request = Resources.bytes(HELLO);
    try (HookServer server = server(new ServerConfig.Recording(dir, 1, 3, 1 << 20))) {
      for (int i = 0; i < 8; i++) {
        assertThat(post(server, "/hello-world/sync", request)).isEqualTo(200);
        int calls = i + 1;
        // one at a time, so that none is dropped for a full queue and the bound is what decides
        Poll.until("recording " + calls, () -> server.recordedCalls() >= calls);
      }
    }
    List<Path> left = recordings();
    assertThat(left).hasSize(3);
    assertThat(left.get(2).getFileName().toString()).contains("-000008-");
  }

  @Test
  void keepsAtMostMaxBytesAndSamples() throws Exception {
    byte[] request = Resources.bytes(HELLO);
    long oneRecording;
    try (HookServer server = server(new ServerConfig.Recording(dir, 2, 1000, 1 << 20))) {
      for (int i = 0; i < 6; i++) {
        assertThat(post(server, "/hello-world/sync", request)).isEqualTo(200);
      }
      Poll.until("three of six calls recorded", () -> server.recordedCalls() == 3);
      oneRecording = Files.size(recordings().get(0));
    }
    assertThat(recordings()).hasSize(3);
    try (Stream<Path> files = Files.list(dir)) {
      files.forEach(f -> f.toFile().delete());
    }
    try (HookServer server =
        server(new ServerConfig.Recording(dir, 1, 1000, 2 * oneRecording + 10))) {
      for (int i = 0; i < 5; i++) {
        assertThat(post(server, "/hello-world/sync", request)).isEqualTo(200);
        int calls = i + 1;
        Poll.until("recording " + calls, () -> server.recordedCalls() >= calls);
      }
    }
    assertThat(recordings()).hasSize(2);
  }

  @Test
  void recordingsAreOwnerOnlyAndWhatACrashLeftHalfWrittenGoes() throws Exception {
    Path leftover =
        Files.writeString(
            dir.resolve(".20260101T000000.000Z-000001-hello-world-sync.json.partial"), "{");
    try (HookServer server = server(ServerConfig.Recording.OFF.in(dir))) {
      assertThat(Files.exists(leftover)).as("removed at start").isFalse();
      assertThat(post(server, "/hello-world/sync", Resources.bytes(HELLO))).isEqualTo(200);
      Poll.until("one recording", () -> server.recordedCalls() == 1);
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.toList())
          .singleElement()
          .satisfies(
              file ->
                  assertThat(
                          java.nio.file.attribute.PosixFilePermissions.toString(
                              Files.getPosixFilePermissions(file)))
                      .isEqualTo("rw-------"));
    }
  }

  @Test
  void aRecordingLargerThanTheDirectoryMayHoldIsDroppedAndCounted() throws Exception {
    try (HookServer server = server(new ServerConfig.Recording(dir, 1, 1000, 2000))) {
      for (int i = 0; i < 3; i++) {
        assertThat(post(server, "/postgrescluster/sync", Resources.bytes(PG_STARTING)))
            .isEqualTo(200);
      }
      Poll.until(
          "three dropped",
          () -> metric(server, "metahooks_recordings_dropped_total{reason=\"too_large\"}") == 3);
      assertThat(server.recordedCalls()).isZero();
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.toList()).as("nothing left behind, not even a partial file").isEmpty();
    }
  }

  @Test
  void aRecordingThatCannotBeWrittenIsDroppedAndCountedAndTheCallAnswered() throws Exception {
    try (HookServer server = server(ServerConfig.Recording.OFF.in(dir))) {
      Files.delete(dir); // as good as a full or lost disk: no file can be created
      assertThat(post(server, "/hello-world/sync", Resources.bytes(HELLO))).isEqualTo(200);
      Poll.until(
          "one dropped",
          () -> metric(server, "metahooks_recordings_dropped_total{reason=\"failed\"}") == 1);
    }
  }

  @Test
  void aWarningAboutDropsAtMostOncePerInterval() {
    long[] now = {0};
    OncePer once = new OncePer(java.time.Duration.ofSeconds(60), () -> now[0]);
    assertThat(once.due()).isTrue();
    now[0] += 59_000_000_000L;
    assertThat(once.due()).isFalse();
    now[0] += 1_000_000_000L;
    assertThat(once.due()).isTrue();
    assertThat(once.due()).isFalse();
  }

  private static double metric(HookServer server, String series) throws Exception {
    String metrics =
        CLIENT
            .send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(line -> line.startsWith(series + " "))
        .mapToDouble(line -> Double.parseDouble(line.substring(series.length() + 1)))
        .findFirst()
        .orElse(-1);
  }

  @Test
  void offByDefaultAndCheckedAtStart() {
    assertThat(ServerConfig.fromEnvironment(Map.of()).recording().enabled()).isFalse();
    ServerConfig.Recording set =
        ServerConfig.fromEnvironment(
                Map.of(
                    "METAHOOKS_RECORD_DIR",
                    dir.resolve("new").toString(),
                    "METAHOOKS_RECORD_SAMPLE",
                    "10",
                    "METAHOOKS_RECORD_MAX_FILES",
                    "5",
                    "METAHOOKS_RECORD_MAX_BYTES",
                    "1000"))
            .recording();
    assertThat(set).isEqualTo(new ServerConfig.Recording(dir.resolve("new"), 10, 5, 1000));
    assertThat(Files.isDirectory(dir.resolve("new"))).isTrue();
    assertThatThrownBy(() -> ServerConfig.fromEnvironment(Map.of("METAHOOKS_RECORD_SAMPLE", "0")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("METAHOOKS_RECORD_SAMPLE");
    assertThat(
            new String(
                java.util.Base64.getDecoder().decode(Redaction.REDACTED_BASE64),
                StandardCharsets.UTF_8))
        .isEqualTo("<redacted>");
  }
}
