package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.bench.RequestGenerator;
import dev.metahooks.server.internal.Recorder;
import dev.metahooks.testsupport.ChildServer;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.RunsAlone;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recording ({@code METAHOOKS_RECORD_DIR}) as deployed: the Dockerfile's ENTRYPOINT flags under the Deployment's
 * 512 MiB ({@code -XX:MaxRAM=512m}, which gives the 384 MiB heap), every call sampled. Large legal syncs one at a
 * time must leave the process serving, within its memory, each call recorded or dropped and counted.
 *
 * <p>{@code -Dmetahooks.before=<class path>} runs the same against another build, for a before figure;
 * {@code -Drecording.calls=200} makes it a soak (docs/reliability.md).
 */
@RunsAlone
class DeployedRecordingIT {
  private static final List<String> FLAGS =
      Stream.concat(
              Stream.of("-XX:MaxRAM=512m"),
              ChildServer.DEPLOYED_FLAGS.stream().filter(flag -> !flag.startsWith("-Xmx")))
          .toList();
  private static final long LIMIT = 512L << 20;
  private static final int CALLS = Integer.getInteger("recording.calls", 5);
  private static final Pattern COUNTER =
      Pattern.compile(
          "(?m)^metahooks_recordings_(written|dropped)_total"
              + "(?:\\{reason=\"(\\w+)\",?})? ([0-9.E]+)$");

  @TempDir Path dir;

  @Test
  void largeCatSetSyncsOneAfterAnotherAreRecordedOrDroppedNeverTheProcess() throws Exception {
    Path recordings = Files.createDirectories(dir.resolve("recordings"));
    String classPath =
        System.getProperty("metahooks.before", System.getProperty("java.class.path"));
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    List<Integer> statuses = new ArrayList<>();
    try (ChildServer server =
        ChildServer.start(classPath, FLAGS, dir, "METAHOOKS_RECORD_DIR", recordings.toString())) {
      for (int i = 0; i < CALLS && server.alive(); i++) {
        byte[] body =
            new RequestGenerator(i).catset(10_000); // 38 MB, each call another (no cache hit)
        try {
          statuses.add(
              client
                  .send(
                      HttpRequest.newBuilder(server.uri("/catset/sync"))
                          .timeout(Duration.ofSeconds(10))
                          .header("Content-Type", "application/json")
                          .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                          .build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode());
        } catch (java.io.IOException e) {
          statuses.add(-1); // the process died under the call
        }
      }
      long answered = statuses.stream().filter(status -> status == 200).count();
      if (server.alive()) { // the last call's recording is written after its answer
        Poll.until(
            "every answered call recorded or dropped",
            () -> !server.alive() || recorded(server) == answered);
      }
      String metrics = server.alive() ? server.get("/metrics") : "";
      long written = counter(metrics, "written", null);
      long dropped = dropped(metrics);
      System.out.printf(
          "%d x 38 MB CatSet syncs with recording on: statuses %s, %d recorded, %d dropped, peak RSS "
              + "%.0f MB%n",
          CALLS, statuses, written, dropped, server.peakRss() / 1e6);

      assertThat(server.alive()).as("alive after %s; log: %s", statuses, server.log()).isTrue();
      assertThat(server.status("/healthz")).isEqualTo(200);
      assertThat(statuses).hasSize(CALLS).allSatisfy(status -> assertThat(status).isIn(200, 503));
      assertThat(server.peakRss()).as("peak RSS").isLessThan(LIMIT);
      assertThat(written + dropped)
          .as("every 200 recorded or counted as dropped")
          .isEqualTo(answered);
      assertThat(written).as("recorded").isPositive();
    }
    try (Stream<Path> files = Files.list(recordings)) {
      List<Path> left = files.toList();
      assertThat(left)
          .isNotEmpty()
          .allSatisfy(
              file -> {
                assertThat(file.getFileName().toString())
                    .doesNotStartWith(".")
                    .endsWith(Recorder.SUFFIX);
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
              });
      long bytes = 0;
      for (Path file : left) {
        bytes += Files.size(file);
      }
      assertThat(bytes).as("within METAHOOKS_RECORD_MAX_BYTES").isLessThanOrEqualTo(256L << 20);
    }
  }

  private static long recorded(ChildServer server) {
    String metrics = server.get("/metrics");
    return counter(metrics, "written", null) + dropped(metrics);
  }

  private static long dropped(String metrics) {
    return Stream.of(Recorder.Drop.values())
        .mapToLong(reason -> counter(metrics, "dropped", reason.tag))
        .sum();
  }

  private static long counter(String metrics, String kind, String reason) {
    Matcher m = COUNTER.matcher(metrics);
    while (m.find()) {
      if (m.group(1).equals(kind) && (reason == null || reason.equals(m.group(2)))) {
        return (long) Double.parseDouble(m.group(3));
      }
    }
    return 0;
  }
}
