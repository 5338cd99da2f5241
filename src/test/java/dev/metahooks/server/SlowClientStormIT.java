package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.ChildServer;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.RunsAlone;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow clients against the server as deployed (its own JVM, the Dockerfile's flags, the 384 MiB heap): 64
 * connections, half trickling their bodies a byte at a time, half never reading their answers of several MB, each
 * reconnecting as soon as it is cut. Meanwhile a client shaped like Metacontroller (one call at a time, a 10 s
 * timeout) must get every call answered, in time: slow clients may cost themselves their connection, never anyone
 * else a 429.
 *
 * <p>{@code -Dmetahooks.before=<class path>} runs the same against another build, for a before figure;
 * {@code -Dstorm.seconds=600} makes it a long run (docs/reliability.md).
 */
@RunsAlone
class SlowClientStormIT {
  private static final Duration STORM = Duration.ofSeconds(Long.getLong("storm.seconds", 15));
  private static final Duration METACONTROLLER_TIMEOUT = Duration.ofSeconds(10);
  private static final int TRICKLERS = 32;
  private static final int NON_READERS = 32;

  @TempDir Path dir;

  @Test
  void metacontrollersCallsAreAnsweredWhileSixtyFourSlowClientsHoldConnections() throws Exception {
    String classPath =
        System.getProperty("metahooks.before", System.getProperty("java.class.path"));
    byte[] small =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    byte[] catset =
        Resources.bytes(Resources.path("fixtures/catset/sync/01-first-sync.request.json"));
    try (ChildServer server = ChildServer.start(classPath, dir)) {
      long end = System.nanoTime() + STORM.toNanos();
      AtomicInteger cuts = new AtomicInteger();
      ExecutorService slow = Executors.newFixedThreadPool(TRICKLERS + NON_READERS);
      for (int i = 0; i < TRICKLERS; i++) {
        slow.execute(() -> trickle(server.port(), small, end, cuts));
      }
      for (int i = 0; i < NON_READERS; i++) {
        slow.execute(() -> neverRead(server.port(), end, cuts));
      }
      Thread.sleep(1000); // the storm is on
      HttpClient metacontroller =
          HttpClient.newBuilder().connectTimeout(METACONTROLLER_TIMEOUT).build();
      List<String> failures = new ArrayList<>();
      int calls = 0;
      long slowest = 0;
      while (System.nanoTime() < end) {
        byte[] body = calls % 2 == 0 ? small : catset;
        String path = calls % 2 == 0 ? "/hello-world/sync" : "/catset/sync";
        long started = System.nanoTime();
        calls++;
        try {
          HttpResponse<String> reply =
              metacontroller.send(
                  HttpRequest.newBuilder(server.uri(path))
                      .timeout(METACONTROLLER_TIMEOUT)
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          if (reply.statusCode() != 200) {
            failures.add(reply.statusCode() + " " + reply.body());
          }
        } catch (IOException e) {
          failures.add(e.toString());
        }
        slowest = Math.max(slowest, System.nanoTime() - started);
      }
      slow.shutdownNow();
      assertThat(slow.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      System.out.printf(
          "64 slow clients (%d cut and back): %d of %d Metacontroller calls answered 200, slowest %d ms"
              + "%n",
          cuts.get(), calls - failures.size(), calls, slowest / 1_000_000);
      String metrics = server.get("/metrics");
      System.out.println(
          metrics
              .lines()
              .filter(
                  line ->
                      line.startsWith("metahooks_hook_requests_total{controller=\"service")
                          || line.startsWith("metahooks_hook_answers_unwritten"))
              .toList());
      assertThat(failures).as("of %d calls", calls).isEmpty();
      // The non-readers were answered, and their answers were not taken: the storm was real.
      assertThat(metrics)
          .containsPattern(
              "metahooks_hook_answers_unwritten_total\\{controller=\"service-per-pod\""
                  + ",hook=\"sync\"} [1-9]");
      assertThat(server.alive()).isTrue();
    }
  }

  /** Sends the headers and then the body a byte every 100 ms; when cut, connects again. */
  private static void trickle(int port, byte[] body, long end, AtomicInteger cuts) {
    while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("localhost", port), 5000);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        out.write(
            ("POST /hello-world/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < body.length && System.nanoTime() < end && in.available() == 0; i++) {
          out.write(body[i]);
          out.flush();
          Thread.sleep(100);
        }
        cuts.incrementAndGet();
      } catch (IOException e) {
        cuts.incrementAndGet(); // cut: connect again
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Asks for an answer of several MB with a tiny receive buffer and never reads it; after 8 s, connects again. */
  private static void neverRead(int port, long end, AtomicInteger cuts) {
    // The same request each time: after the first its answer comes from the response cache, so
    // these clients cost
    // no computing, only slowness (distinct expensive requests would be real work, which the slots
    // are for).
    byte[] body = manyServices();
    while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
      try (Socket socket = new Socket()) {
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("localhost", port), 5000);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /service-per-pod/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        Thread.sleep(Math.max(0, Math.min(8000, (end - System.nanoTime()) / 1_000_000)));
        cuts.incrementAndGet();
      } catch (IOException e) {
        cuts.incrementAndGet();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** A StatefulSet of a few kB whose answer is 16,000 Services (about 8 MB). */
  static byte[] manyServices() {
    ObjectNode request =
        Resources.readObject(
            Resources.path(
                "fixtures/service-per-pod/sync/01-v1-first-sync-three-replicas.request.json"));
    ObjectNode statefulSet = (ObjectNode) request.get("object");
    ((ObjectNode) statefulSet.get("spec")).put("replicas", 16_000);
    try {
      return JsonTrees.MAPPER.writeValueAsBytes(request);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
