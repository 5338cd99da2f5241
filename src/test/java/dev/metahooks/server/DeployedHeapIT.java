package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.ChildServer;
import dev.metahooks.testsupport.HostileMatrix;
import dev.metahooks.testsupport.RunsAlone;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The memory attacks against the server as deployed: its own JVM with the Dockerfile's flags and the heap of the
 * Deployment's 512 MiB limit ({@code -Xmx384m}, SerialGC, ExitOnOutOfMemoryError, so an OutOfMemoryError would
 * end the process and fail these tests). No attack stops it or leaves it unresponsive, and every answer is JSON.
 */
@RunsAlone
class DeployedHeapIT {
  /** Metacontroller's own timeout for a hook call. */
  private static final Duration METACONTROLLER_TIMEOUT = Duration.ofSeconds(10);

  @TempDir static Path dir;
  private static ChildServer server;

  @BeforeAll
  static void start() {
    // -Dmetahooks.before=<class path> runs the same against another build, for a before figure
    server =
        ChildServer.start(
            System.getProperty("metahooks.before", System.getProperty("java.class.path")), dir);
  }

  @BeforeEach
  void idle() {
    server.awaitIdle();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static void assertStillServing() {
    assertThat(server.alive()).as("alive; log: %s", server.log()).isTrue();
    assertThat(server.status("/healthz")).as("healthz answers within a probe's 2 s").isEqualTo(200);
  }

  /**
   * Should an OutOfMemoryError happen anyway (here: a budget set far above what a 64 MiB heap holds, and no
   * {@code -XX:+ExitOnOutOfMemoryError}), the process exits, so that the kubelet restarts it: it never lives on
   * without serving.
   */
  @Test
  void anOutOfMemoryErrorEndsTheProcessEvenWithoutTheJvmFlag(@TempDir Path own) {
    try (ChildServer starved =
        ChildServer.start(
            System.getProperty("java.class.path"),
            List.of("-Xmx64m", "-XX:+UseSerialGC"),
            own,
            "METAHOOKS_BODY_BUDGET_BYTES",
            "200000000",
            "METAHOOKS_MAX_BODY_BYTES",
            "200000000")) {
      HostileMatrix.largeCatSets(starved);
      assertThat(starved.awaitExit(Duration.ofSeconds(30)))
          .as("exited; log: %s", starved.log())
          .isEqualTo(3);
      assertThat(starved.log()).contains("out of memory: exiting");
    }
  }

  @Test
  void theseAreTheFlagsAndTheHeapTheImageAndTheDeploymentGive() throws Exception {
    Path project = Path.of(System.getProperty("metahooks.projectDir", "."));
    String entrypoint =
        Files.readAllLines(project.resolve("Dockerfile")).stream()
            .filter(line -> line.startsWith("ENTRYPOINT"))
            .findFirst()
            .orElseThrow();
    for (String flag : ChildServer.DEPLOYED_FLAGS) {
      if (!flag.startsWith("-Xmx")) {
        assertThat(entrypoint).contains("\"" + flag + "\"");
      }
    }
    // -Xmx384m is what MaxRAMPercentage=75 gives under the Deployment's limit.
    assertThat(entrypoint).contains("\"-XX:MaxRAMPercentage=75\"");
    assertThat(Files.readString(project.resolve("manifests/base/deployment.yaml")))
        .contains("memory: 512Mi");
    assertThat(ChildServer.DEPLOYED_FLAGS).contains("-Xmx384m");
  }

  /** A StatefulSet, a CatSet and an IndexedJob of a few kB asking for answers of a gigabyte. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "service-per-pod | 0 | object.spec.replicas | object.metadata.annotations['service-per-pod-ports']",
        "catset | 1 | parent.spec.replicas | parent.spec.volumeClaimTemplates[0]",
        "indexedjob | 2 | parent.spec.parallelism | parent.spec.template"
      })
  void aRequestAskingForAHugeAnswerIs422NamingTheField(
      String controller, int attack, String field, String template) throws Exception {
    HostileMatrix.Result result = HostileMatrix.single(server, attack);
    assertThat(result.status()).as(result.body()).isEqualTo(422);
    assertThat(JsonTrees.MAPPER.readTree(result.body()).path("field").asText()).isEqualTo(field);
    assertThat(result.body()).contains(template + " × " + field, "METAHOOKS_MAX_RESPONSE_BYTES");
    assertStillServing();
  }

  @Test
  void bodiesOfNothingButStructureAre413() throws Exception {
    for (int attack : new int[] {3, 4}) {
      HostileMatrix.Result result = HostileMatrix.single(server, attack);
      // A pause of either JVM (a collection after the last 38 MB body, on a busy machine) can hold
      // the transfer under the slow-sender floor: that 408 is the server's right answer to a body
      // that did not arrive, and Metacontroller sends it again, so the test does too, twice at
      // most.
      for (int retry = 0; retry < 2 && result.status() == 408; retry++) {
        result = HostileMatrix.single(server, attack);
      }
      assertThat(result.status()).as("%s: %s", result.attack(), result.body()).isEqualTo(413);
      assertThat(JsonTrees.MAPPER.readTree(result.body()).path("message").asText())
          .contains("too many objects, arrays");
      assertStillServing();
    }
  }

  @Test
  void fourLargeCatSetsAtOnceAreServedOrRefusedInTime() throws Exception {
    HostileMatrix.Burst burst = HostileMatrix.largeCatSets(server);
    for (HostileMatrix.Result result : burst.results()) {
      assertThat(result.status()).as(result.body()).isIn(Set.of(200, 429, 503));
      assertThat(result.json()).as(result.body()).isTrue();
      assertThat(result.elapsed())
          .as("answered before Metacontroller gives up")
          .isLessThan(METACONTROLLER_TIMEOUT);
    }
    // At most one 39 MB body fits the budget at once (41 MiB under this heap): the others wait for
    // it and are
    // served in turn, or are refused after the admission wait; which, depends on how fast the
    // machine computes
    // (OverloadAndDeadlineTest shows the budget's refusal itself). Either way the memory stays
    // bounded.
    assertThat(burst.results()).anySatisfy(result -> assertThat(result.status()).isEqualTo(200));
    assertThat(server.peakRss())
        .as("peak RSS within the Deployment's limit")
        .isLessThan(512L << 20);
    System.out.printf(
        "4 x 39 MB CatSets at once: statuses %s, first 429/503 after %s ms, peak RSS %.0f MB%n",
        burst.results().stream().map(HostileMatrix.Result::status).toList(),
        burst.firstRefusal() == null ? "(none)" : burst.firstRefusal().toMillis(),
        server.peakRss() / 1e6);
    assertStillServing();
  }
}
