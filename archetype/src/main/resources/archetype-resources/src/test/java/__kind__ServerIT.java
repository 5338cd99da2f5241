package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar run as the image runs it ({@code java -jar ${artifactId}.jar}, its libraries in lib/): it serves the
 * hook, logs JSON lines on standard error with no configuration, and reports this build's version.
 */
class ${kind}ServerIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path JAR = Path.of(System.getProperty("${artifactId}.jar", "target/${artifactId}.jar"));
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static final BlockingQueue<String> LOG_LINES = new LinkedBlockingQueue<>();
  private static Process server;
  private static int port;

  @BeforeAll
  static void start() throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", JAR.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    // No setting but a free port: the logging is the default one.
    builder.environment().keySet().removeIf(name -> name.startsWith("METAHOOKS_"));
    builder.environment().put("METAHOOKS_PORT", "0");
    server = builder.start();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8))) {
        lines.lines().forEach(LOG_LINES::add);
      } catch (IOException | UncheckedIOException ignored) {
        // the process ended (destroy() closes the stream under the reader)
      }
    }, "${artifactId}-stderr");
    reader.setDaemon(true);
    reader.start();
    port = logLine("metahooks listening").path("port").asInt();
  }

  @AfterAll
  static void stop() throws Exception {
    server.destroy();   // SIGTERM: the server drains and exits
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
  }

  /** The next JSON log line whose message is {@code message}; every line before it must be JSON too. */
  private static JsonNode logLine(String message) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      String line = LOG_LINES.poll(100, TimeUnit.MILLISECONDS);
      if (line == null) {
        assertThat(server.isAlive()).as("server running; its output: %s", seen).isTrue();
        continue;
      }
      seen.add(line);
      JsonNode entry = JSON.readTree(line);   // fails on any line that is not JSON
      if (entry.path("message").asText().equals(message)) {
        return entry;
      }
    }
    throw new AssertionError("no log line '" + message + "' within 30 s: " + seen);
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://localhost:" + port + path);
  }

  @Test
  void servesTheHookAndLogsEachCallAsJson() throws Exception {
    HttpResponse<String> reply = send(HttpRequest.newBuilder(uri("/${artifactId}/sync"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofFile(
            Path.of("src/test/resources/fixtures/${artifactId}/sync/01-first-sync.request.json"))));

    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(reply.body()).at("/children/0/data/message").asText()).isEqualTo("Hello, Team!");
    JsonNode call = logLine("hook call");
    assertThat(call.path("controller").asText()).isEqualTo("${artifactId}");
    assertThat(call.path("status").asInt()).isEqualTo(200);
    assertThat(send(HttpRequest.newBuilder(uri("/readyz"))).statusCode()).isEqualTo(200);
  }

  @Test
  void reportsThisBuildsVersion() throws Exception {
    JsonNode listing = JSON.readTree(send(HttpRequest.newBuilder(uri("/controllers"))).body());

    assertThat(listing.at("/controllers/0/name").asText()).isEqualTo("${artifactId}");
    assertThat(listing.at("/controllers/0/version").asText()).isEqualTo(System.getProperty("controller.version"));
  }

  @Test
  void answersOneRequestOfflineWithArguments() throws Exception {
    Process offline = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", JAR.toString(), "sync", "${artifactId}")
        .redirectInput(Path.of("src/test/resources/fixtures/${artifactId}/sync/01-first-sync.request.json").toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    JsonNode answer = JSON.readTree(offline.getInputStream());

    assertThat(offline.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(offline.exitValue()).isZero();
    assertThat(answer.at("/children/0/data/message").asText()).isEqualTo("Hello, Team!");
  }

  @Test
  void theJarNamesItsMainClassAndEveryLibraryTheImageCopies() throws IOException {
    Manifest manifest;
    try (JarFile jar = new JarFile(JAR.toFile())) {
      manifest = jar.getManifest();
    }
    assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo(${kind}Server.class.getName());
    List<String> classPath = List.of(manifest.getMainAttributes().getValue("Class-Path").split(" "));
    assertThat(classPath).anyMatch(entry -> entry.matches("lib/metahooks-[0-9.]+-logging\\.jar"));
    for (String entry : classPath) {
      assertThat(JAR.resolveSibling(entry)).as("Class-Path entry").isRegularFile();
    }
    try (var libs = Files.list(JAR.resolveSibling("lib"))) {
      assertThat(libs.map(lib -> "lib/" + lib.getFileName()).toList()).containsExactlyInAnyOrderElementsOf(classPath);
    }
  }
}
