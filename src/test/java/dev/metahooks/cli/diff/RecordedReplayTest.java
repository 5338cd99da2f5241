package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.RecordingKey;
import dev.metahooks.server.internal.Redaction;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * diff gates a rollout: every golden fixture of every controller, sent to the real server (the system's clock and
 * randomness, as deployed) with recording on and a recording key, is recorded; the same build replaying those
 * recordings reports no change, while no recording holds a Secret value in plain text. Without the key a
 * PostgresCluster recording cannot be replayed exactly, and a real change still shows.
 */
class RecordedReplayTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final Path FIXTURES =
      Resources.projectDir().resolve("src/test/resources/fixtures");

  @TempDir static Path work;
  static Path sealed;
  static Path masked;
  static Path key;

  /** Every Secret value the server saw or answered with, long enough to be a password, key or URI. */
  static final Set<String> secrets = new HashSet<>();

  static int calls;

  @BeforeAll
  static void recordEveryFixture() throws Exception {
    key =
        Files.writeString(
            work.resolve("recording.key"), "0123456789abcdefghijklmnopqrstuvwxyzABCDEF\n");
    sealed = work.resolve("sealed");
    masked = work.resolve("masked");
    List<Path> requests = requests();
    record(requests, ServerConfig.Recording.OFF.in(sealed).sealedWith(key));
    record(requests, ServerConfig.Recording.OFF.in(masked));
    calls = requests.size();
  }

  private static void record(List<Path> requests, ServerConfig.Recording recording)
      throws Exception {
    Files.createDirectories(recording.dir());
    int answered = 0;
    try (HookServer server =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withResponseCacheBytes(0)
                    .withRecording(recording),
                Catalog.controllers())
            .start()) {
      for (Path request : requests) {
        Path hookDir = request.getParent();
        String path = "/" + hookDir.getParent().getFileName() + "/" + hookDir.getFileName();
        byte[] body = Files.readAllBytes(request);
        HttpResponse<byte[]> answer =
            CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.statusCode()).as(request.toString()).isEqualTo(200);
        // one at a time: a call that arrives while earlier ones still record and wait for a slot is
        // not recorded
        int recorded = ++answered;
        Poll.until(
            "the recording of " + request, () -> recordings(recording.dir()).size() == recorded);
        for (JsonNode seen :
            List.of(JsonTrees.MAPPER.readTree(body), JsonTrees.MAPPER.readTree(answer.body()))) {
          // a value the call shows outside any Secret too (a host name) is no secret
          String open = Redaction.redactSecrets(seen).toString();
          Redaction.secretValues(seen).stream()
              .filter(v -> v.length() >= 16 && !open.contains(v))
              .forEach(secrets::add);
        }
      }
    }
    assertThat(recordings(recording.dir())).hasSize(requests.size());
  }

  @Test
  void theSameBuildReplaysItsOwnRecordingsWithoutAChange() {
    Diff diff = diff("--key", key.toString(), sealed.toString());
    assertThat(diff.err()).isEmpty();
    assertThat(diff.out()).isEqualTo("no changes: " + calls + " calls answered as before\n");
    assertThat(diff.exit()).isZero();
    assertThat(calls)
        .as("every golden fixture request, of every controller")
        .isGreaterThanOrEqualTo(258);
  }

  @Test
  void everyControllerAndPostgresClusterFirstSyncsAreAmongThem() throws IOException {
    Set<String> recorded = new HashSet<>();
    boolean generated = false;
    for (Path file : recordings(sealed)) {
      JsonNode recording = JsonTrees.MAPPER.readTree(file.toFile());
      recorded.add(recording.path("controller").asText());
      generated |= recording.path("generated").size() > 0;
    }
    try (Stream<Path> controllers = Files.list(FIXTURES)) {
      assertThat(recorded)
          .containsExactlyInAnyOrderElementsOf(
              controllers.map(p -> p.getFileName().toString()).toList());
    }
    assertThat(generated).as("a call that generated passwords").isTrue();
  }

  @Test
  void noRecordingHoldsASecretValueInPlainText() throws IOException {
    assertThat(secrets).hasSizeGreaterThan(50);
    for (Path file : recordings(sealed)) {
      String text = Files.readString(file);
      for (String secret : secrets) {
        assertThat(text).as(file + " holds a Secret value").doesNotContain(secret);
      }
    }
  }

  @Test
  void maskedRecordingsOfPostgresClustersDoNotReplayAsRecorded() {
    Diff diff = diff(masked.toString());
    assertThat(diff.exit()).isEqualTo(1);
    // user URIs, the users Job's name and first passwords derive from the masked values
    assertThat(
            diff.out()
                .lines()
                .filter(line -> !line.startsWith(" ") && line.contains("/"))
                .map(line -> line.substring(0, line.indexOf(' ')))
                .distinct())
        .containsExactly("postgrescluster/sync");
  }

  @Test
  void sealedRecordingsNeedTheirKey() throws IOException {
    Diff without = diff(sealed.toString());
    assertThat(without.exit()).isEqualTo(2);
    assertThat(without.err())
        .contains("Secret values are sealed; give the key it was recorded with (--key <file>");
    Path other =
        Files.writeString(work.resolve("other.key"), "another-key-of-more-than-32-bytes-in-length");
    Diff wrong = diff("--key", other.toString(), sealed.toString());
    assertThat(wrong.exit()).isEqualTo(2);
    assertThat(wrong.err()).contains("a sealed value that this key does not open");
    Path shortKey = Files.writeString(work.resolve("short.key"), "short");
    assertThat(diff("--key", shortKey.toString(), sealed.toString()).err())
        .contains("holds 5 bytes; a key needs at least 32");
  }

  @Test
  void aChangedSecretValueStillShowsAndStaysMasked() throws IOException {
    Path changed = Files.createDirectories(work.resolve("changed"));
    RecordingKey opener = RecordingKey.read(key, "key");
    Path source =
        recordings(sealed).stream()
            .filter(f -> f.toString().endsWith("-postgrescluster-sync.json"))
            .findFirst()
            .orElseThrow();
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(source.toFile());
    String password = "a-password-the-running-build-never-answered";
    int edited = 0;
    for (JsonNode child : recording.at("/response/children")) {
      if (child.path("kind").asText().equals("Secret") && child.path("data").has("password")) {
        ((ObjectNode) child.get("data"))
            .put(
                "password",
                opener.seal(
                    Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8))));
        edited++;
      }
    }
    assertThat(edited).isPositive();
    Files.write(
        changed.resolve(source.getFileName()), JsonTrees.MAPPER.writeValueAsBytes(recording));
    Diff diff = diff("--key", key.toString(), changed.toString());
    assertThat(diff.exit()).isEqualTo(1);
    assertThat(diff.out()).contains("data.password: changed (<redacted>)").doesNotContain(password);
  }

  @Test
  void aChangedAnswerStillShows() throws IOException {
    Path changed = Files.createDirectories(work.resolve("older"));
    Path source =
        recordings(sealed).stream()
            .filter(f -> f.toString().endsWith("-catset-sync.json"))
            .findFirst()
            .orElseThrow();
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(source.toFile());
    JsonNode pod = null;
    for (JsonNode child : recording.at("/response/children")) {
      if (child.path("kind").asText().equals("Pod")) {
        pod = child;
      }
    }
    assertThat(pod).isNotNull();
    ((ObjectNode) pod.at("/spec/containers/0")).put("image", "an-older-image:1");
    Files.write(
        changed.resolve(source.getFileName()), JsonTrees.MAPPER.writeValueAsBytes(recording));
    Diff diff = diff("--key", key.toString(), changed.toString());
    assertThat(diff.exit()).isEqualTo(1);
    assertThat(diff.out()).contains("spec.containers[0].image: \"an-older-image:1\" → ");
  }

  /**
   * {@code -Ddiff.examples.update=true}: docs/diff/recorded/ gets the recordings of two PostgresCluster calls, a
   * first sync (which generates passwords) and the next one, as the server wrote them, sealed under the example key.
   */
  @Test
  void docsExamplesAreRealRecordings() throws IOException {
    Path docs = Resources.projectDir().resolve("docs/diff/recorded");
    if (Boolean.getBoolean("diff.examples.update")) {
      String[] calls = {"01-first-sync-dev-sample", "02-dev-pod-starting"};
      Path exampleKey = Resources.projectDir().resolve("docs/diff/example-recording.key");
      for (String call : calls) {
        Path dir = Files.createDirectories(work.resolve("example-" + call));
        Path request = FIXTURES.resolve("postgrescluster/sync/" + call + ".request.json");
        try {
          record(List.of(request), ServerConfig.Recording.OFF.in(dir).sealedWith(exampleKey));
        } catch (Exception e) {
          throw new IOException(e);
        }
        Path recording = recordings(dir).get(0);
        Files.copy(recording, Files.createDirectories(docs).resolve(recording.getFileName()));
      }
    }
    assertThat(recordings(docs))
        .hasSize(2)
        .allSatisfy(file -> assertThat(Files.readString(file)).contains("\"metahooks-sealed:v1:"))
        .anySatisfy(file -> assertThat(Files.readString(file)).contains("\"generated\""));
  }

  private record Diff(int exit, String out, String err) {}

  private static Diff diff(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        DiffCommand.run(
            List.of(args),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Diff(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static List<Path> requests() throws IOException {
    try (Stream<Path> files = Files.walk(FIXTURES)) {
      return new ArrayList<>(
          files.filter(f -> f.toString().endsWith(".request.json")).sorted().toList());
    }
  }

  private static List<Path> recordings(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(
              f ->
                  f.getFileName().toString().endsWith(".json")
                      && !f.getFileName().toString().startsWith("."))
          .sorted()
          .toList();
    }
  }
}
