package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.Metahooks;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.server.InProcessHooks;
import dev.metahooks.testing.kube.Crds;
import dev.metahooks.testing.kube.KubeSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * Golden fixtures as JUnit 5 dynamic tests: every {@code <dir>/<controller>/<hook>/<case>.request.json} must be
 * answered with {@code <case>.response.json} exactly (children in order), the same in-process
 * ({@link InProcessHooks}: the server's request path without a socket), through the offline command
 * ({@link Metahooks#runOffline}, what {@code java -jar metahooks.jar sync <controller> < request.json} runs) and over HTTP; and every child or attachment in the answer must pass a strict schema check: built-in kinds against the Kubernetes model, custom
 * kinds against the CRDs given with {@link #crds}.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> fixtures() {
 *   return GoldenFixtures.of(GreetingController.controller())
 *       .in(Path.of("src/test/resources/fixtures"))
 *       .crds(Path.of("k8s/crds"))
 *       .tests();
 * }
 * }</pre>
 *
 * <p>To write the expected answer of a new fixture, run with {@code -Dfixtures.update=true}, then read what it wrote
 * (git diff) before committing it: an answer is only golden once a person has checked it.
 */
public final class GoldenFixtures {
  /** The system property that makes the tests write each answer into its {@code .response.json}. */
  public static final String UPDATE_PROPERTY = "fixtures.update";

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private final List<Controller> controllers;
  private Path directory = Path.of("src/test/resources/fixtures");
  private Crds crds = Crds.none();

  private GoldenFixtures(List<Controller> controllers) {
    this.controllers = List.copyOf(controllers);
  }

  public static GoldenFixtures of(Controller... controllers) {
    return of(List.of(controllers));
  }

  public static GoldenFixtures of(List<Controller> controllers) {
    return new GoldenFixtures(controllers);
  }

  /** Where the fixtures are ({@code src/test/resources/fixtures} unless told). */
  public GoldenFixtures in(Path fixtures) {
    this.directory = fixtures;
    return this;
  }

  /** The CRDs (YAML files, or directories of them) that custom-kind children are checked against. */
  public GoldenFixtures crds(Path... crdFilesOrDirectories) {
    return crds(Crds.from(crdFilesOrDirectories));
  }

  public GoldenFixtures crds(Crds given) {
    this.crds = given;
    return this;
  }

  /** Every {@code .request.json} below the directory, sorted. */
  public List<Path> requests() {
    return Files.isDirectory(directory) ? find(directory) : List.of();
  }

  /** One container per fixture, each with its three tests; no fixtures is a failure, not a silent pass. */
  public Stream<DynamicNode> tests() {
    List<Path> requests = requests();
    if (requests.isEmpty()) {
      return Stream.of(
          DynamicTest.dynamicTest(
              "fixtures",
              () -> {
                throw new AssertionError("no *.request.json below " + directory.toAbsolutePath());
              }));
    }
    InProcessHooks hooks = InProcessHooks.of(controllers);
    SharedServer server = new SharedServer(controllers);
    boolean update = Boolean.getBoolean(UPDATE_PROPERTY);
    return requests.stream()
        .map(
            request -> {
              Path relative = directory.relativize(request);
              String controller = relative.getName(0).toString();
              String hook = relative.getName(1).toString();
              String name = request.getFileName().toString().replace(".request.json", "");
              Path response = request.resolveSibling(name + ".response.json");
              byte[] body = bytes(request);
              return DynamicContainer.dynamicContainer(
                  controller + "/" + hook + "/" + name,
                  request.toUri(),
                  Stream.of(
                      DynamicTest.dynamicTest(
                          "in-process",
                          () -> {
                            InProcessHooks.Response answer = hooks.call(controller, hook, body);
                            JsonNode answered = answer.json();
                            assertThat(answer.status())
                                .as("status, body %s", answered)
                                .isEqualTo(200);
                            if (update) {
                              Files.writeString(
                                  response,
                                  Json.writer()
                                          .withDefaultPrettyPrinter()
                                          .writeValueAsString(answered)
                                      + "\n");
                            }
                            assertThat(answered)
                                .as("answer to %s", request)
                                .isEqualTo(read(response));
                            for (JsonNode child : children(answered)) {
                              assertValid(child);
                            }
                          }),
                      DynamicTest.dynamicTest(
                          "offline CLI",
                          () -> {
                            ByteArrayOutputStream out = new ByteArrayOutputStream();
                            int exit =
                                Metahooks.runOffline(
                                    new String[] {hook, controller},
                                    new ByteArrayInputStream(body),
                                    new PrintStream(out, true, StandardCharsets.UTF_8),
                                    System.err,
                                    controllers);
                            assertThat(exit).isZero();
                            assertThat(Json.reader().readTree(out.toByteArray()))
                                .isEqualTo(read(response));
                          }),
                      DynamicTest.dynamicTest(
                          "over HTTP",
                          () -> {
                            HttpResponse<String> reply =
                                CLIENT.send(
                                    HttpRequest.newBuilder(
                                            server.uri("/" + controller + "/" + hook))
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                        .build(),
                                    HttpResponse.BodyHandlers.ofString());
                            assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
                            assertThat(reply.headers().firstValue("Content-Type").orElse(""))
                                .startsWith("application/json");
                            assertThat(Json.reader().readTree(reply.body()))
                                .isEqualTo(read(response));
                          })));
            });
  }

  /** A built-in kind against the Kubernetes model, a custom kind against its CRD. */
  public void assertValid(JsonNode child) {
    if (KubeSchema.knows(child) || !crds.knows(child)) {
      KubeSchema.assertValid(child); // names the kind when neither knows it
    } else {
      crds.schemaOf(child).assertValid(child);
    }
  }

  /** The children (composite) or attachments (decorator) of an answer. */
  public static Iterable<JsonNode> children(JsonNode answer) {
    JsonNode list = answer.has("children") ? answer.get("children") : answer.path("attachments");
    return list.isArray() ? list : List.of();
  }

  private static List<Path> find(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".request.json"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode read(Path response) throws IOException {
    if (!Files.exists(response)) {
      throw new AssertionError(
          response
              + " does not exist: run with -D"
              + UPDATE_PROPERTY
              + "=true to write it, then review it");
    }
    return Json.reader().readTree(Files.readAllBytes(response));
  }

  /** One hook server for the HTTP tests of one run, started by the first of them and stopped with the JVM. */
  private static final class SharedServer {
    private final List<Controller> controllers;
    private LocalHooks hooks;

    SharedServer(List<Controller> controllers) {
      this.controllers = controllers;
    }

    synchronized URI uri(String path) {
      if (hooks == null) {
        hooks = LocalHooks.start(controllers);
        Runtime.getRuntime().addShutdownHook(new Thread(hooks::close));
      }
      return URI.create(hooks.baseUrl() + path);
    }
  }
}
