package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.json.JsonTrees;
import dev.metahooks.manifests.DockerfileTest.Instruction;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's class-data archive, made and used for real (after {@code package}, by Failsafe): the packaged jar's
 * training run with the Dockerfile's own training flags writes an archive, and the jar started with the
 * ENTRYPOINT's flags and {@code -Xshare:on} (which fails unless the archive maps) answers a sync. The JVM refuses
 * both for a class path holding a non-empty directory, so this fails if the jar's Class-Path names one.
 */
class ClassDataArchiveIT {
  private static final Path PROJECT = Resources.projectDir();
  private static final Path JAR =
      Path.of(
          System.getProperty("metahooks.jar", PROJECT.resolve("target/metahooks.jar").toString()));
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final Path HELLO_WORLD =
      PROJECT.resolve("src/test/resources/fixtures/hello-world");
  private static final Path FIRST_SYNC = HELLO_WORLD.resolve("sync/01-first-sync");

  @TempDir Path dir;
  private Process server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.destroyForcibly();
    }
  }

  @Test
  void theTrainedArchiveMapsAndTheServerAnswersFromIt() throws Exception {
    Path archive = dir.resolve("metahooks.jsa");
    List<String> training = new ArrayList<>(List.of(JAVA));
    training.addAll(trainingFlags(archive));
    // The hello-world fixtures alone (<controller>/<hook>/ below the directory trained on): a few
    // seconds.
    Path fixtures = dir.resolve("fixtures");
    copyTree(
        HELLO_WORLD,
        Files.createDirectories(fixtures).resolve(HELLO_WORLD.getFileName().toString()));
    training.addAll(List.of("-jar", JAR.toString(), "train", fixtures.toString()));
    Process train =
        new ProcessBuilder(training)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("train.log").toFile())
            .start();
    assertThat(train.waitFor(120, TimeUnit.SECONDS)).as("training finished").isTrue();
    assertThat(train.exitValue())
        .as("training run: %s", Files.readString(dir.resolve("train.log")))
        .isZero();
    assertThat(archive)
        .as("archive written: %s", Files.readString(dir.resolve("train.log")))
        .isNotEmptyFile();

    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> start = new ArrayList<>(List.of(JAVA, "-Xshare:on"));
    start.addAll(entrypointFlags(archive));
    start.addAll(List.of("-jar", JAR.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(start)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("server.log").toFile());
    builder.environment().put("METAHOOKS_PORT", String.valueOf(port));
    server = builder.start();

    byte[] request = Files.readAllBytes(Path.of(FIRST_SYNC + ".request.json"));
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest sync =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/hello-world/sync"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(request))
            .build();
    List<HttpResponse<String>> answer = new ArrayList<>();
    Poll.until(
        "a sync answered by the server started on the archive",
        () -> {
          if (!server.isAlive()) {
            throw new AssertionError(
                "the server exited: " + Files.readString(dir.resolve("server.log")));
          }
          try {
            answer.add(client.send(sync, HttpResponse.BodyHandlers.ofString()));
            return true;
          } catch (java.io.IOException notListeningYet) {
            return false;
          }
        });
    assertThat(answer.get(0).statusCode()).isEqualTo(200);
    assertThat(JsonTrees.MAPPER.readTree(answer.get(0).body()))
        .isEqualTo(JsonTrees.MAPPER.readTree(Path.of(FIRST_SYNC + ".response.json").toFile()));
  }

  private static void copyTree(Path from, Path to) throws java.io.IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
  }

  /** The JVM flags of the Dockerfile's training run, writing to {@code archive} instead of the image's file. */
  private static List<String> trainingFlags(Path archive) throws Exception {
    String run =
        DockerfileTest.instructions().stream()
            .map(Instruction::arguments)
            .filter(a -> a.contains("-XX:ArchiveClassesAtExit="))
            .findFirst()
            .orElseThrow();
    String command =
        run.substring(run.indexOf(" java ") + " java ".length(), run.indexOf(" -jar "));
    return Arrays.stream(command.strip().split("\\s+"))
        .map(
            f ->
                f.startsWith("-XX:ArchiveClassesAtExit=")
                    ? "-XX:ArchiveClassesAtExit=" + archive
                    : f)
        .toList();
  }

  /** The JVM flags of the Dockerfile's ENTRYPOINT, mapping {@code archive} instead of the image's file. */
  private static List<String> entrypointFlags(Path archive) throws Exception {
    String entrypoint =
        DockerfileTest.instructions().stream()
            .filter(i -> i.keyword().equals("ENTRYPOINT"))
            .findFirst()
            .orElseThrow()
            .arguments();
    List<String> words = new ArrayList<>();
    JsonTrees.MAPPER.readTree(entrypoint).forEach(w -> words.add(w.asText()));
    return words.subList(1, words.size() - 2).stream()
        .map(f -> f.startsWith("-XX:SharedArchiveFile=") ? "-XX:SharedArchiveFile=" + archive : f)
        .toList();
  }
}
