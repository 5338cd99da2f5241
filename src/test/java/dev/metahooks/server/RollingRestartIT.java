package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling restart as Kubernetes does it, with real processes: replica A gets SIGTERM, its readiness fails, a
 * second later the endpoints leave it (the {@link PinningProxy} sends new connections to replica B, while open ones
 * stay with A, as kube-proxy keeps them). Across it a steady stream of hook calls over kept-alive connections, like
 * Metacontroller's workers, a call whose body is still arriving when A's drain delay ends, and a caller whose idle
 * kept-alive connection to A is used again after that delay. Not one call may be refused, reset or lost.
 *
 * <p>{@code -Dmetahooks.before=<class path>} runs the same against another build, for a before figure.
 */
class RollingRestartIT {
  private static final Duration DELAY = Duration.ofSeconds(2);
  private static final Duration ENDPOINTS_UPDATE = Duration.ofSeconds(1);
  private static final Duration METACONTROLLER_TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void kill() {
    processes.forEach(Process::destroyForcibly);
  }

  private record Replica(Process process, int port) {}

  private Replica start(String name) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String classPath =
        System.getProperty("metahooks.before", System.getProperty("java.class.path"));
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                "dev.metahooks.Main")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".log").toFile());
    builder.environment().put("METAHOOKS_PORT", String.valueOf(port));
    builder.environment().put("METAHOOKS_LOG_LEVEL", "info");
    builder
        .environment()
        .put("METAHOOKS_WARM_UP_MS", "0"); // ready at once: WarmUpTest covers the warm-up
    builder.environment().put("METAHOOKS_SHUTDOWN_DELAY_MS", String.valueOf(DELAY.toMillis()));
    builder.environment().put("METAHOOKS_SHUTDOWN_TIMEOUT_MS", "10000");
    Process process = builder.start();
    processes.add(process);
    return new Replica(process, port);
  }

  private static int readiness(int port) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/readyz"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String call(HttpClient client, URI uri, byte[] body) {
    try {
      HttpResponse<String> reply =
          client.send(
              HttpRequest.newBuilder(uri)
                  .timeout(METACONTROLLER_TIMEOUT)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return reply.statusCode() == 200 ? null : reply.statusCode() + " " + reply.body();
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  @Test
  void aRollingRestartLosesNoCall() throws Exception {
    Replica a = start("a");
    Replica b = start("b");
    Poll.until(
        "both replicas ready", () -> readiness(a.port()) == 200 && readiness(b.port()) == 200);
    byte[] body =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger calls = new AtomicInteger();
    try (PinningProxy service = new PinningProxy(a.port())) {
      URI hook = URI.create("http://localhost:" + service.port() + "/hello-world/sync");
      HttpClient metacontroller =
          HttpClient.newBuilder().connectTimeout(METACONTROLLER_TIMEOUT).build();
      HttpClient idleCaller =
          HttpClient.newBuilder().connectTimeout(METACONTROLLER_TIMEOUT).build();
      assertThat(call(idleCaller, hook, body)).as("its kept-alive connection is with A").isNull();

      long[] stopAt = {Long.MAX_VALUE};
      ExecutorService workers = Executors.newFixedThreadPool(4);
      for (int i = 0; i < 4; i++) {
        workers.execute(
            () -> {
              while (System.nanoTime() < stopAt[0]) {
                calls.incrementAndGet();
                String failure = call(metacontroller, hook, body);
                if (failure != null) {
                  failures.add("stream: " + failure);
                }
              }
            });
      }
      Thread.sleep(1000);
      Socket opened = new Socket("localhost", a.port()); // for a call that starts after the SIGTERM
      a.process().destroy(); // SIGTERM
      long sigterm = System.nanoTime();
      Poll.until("A's readiness to fail", () -> readiness(a.port()) != 200);
      Thread.sleep(ENDPOINTS_UPDATE.toMillis());
      service.route(b.port());

      // A call to A whose body is still arriving when A's delay ends, on a connection opened
      // before.
      byte[] padded = new byte[body.length + 300_000];
      System.arraycopy(body, 0, padded, 0, body.length);
      java.util.Arrays.fill(padded, body.length, padded.length, (byte) ' ');
      CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> trickle(opened, padded));

      Thread.sleep(Math.max(0, DELAY.toMillis() + 300 - (System.nanoTime() - sigterm) / 1_000_000));
      String late = call(idleCaller, hook, body); // A's delay is over; its connection was with A
      if (late != null) {
        failures.add("idle kept-alive connection, used after the delay: " + late);
      }
      String slowReply = slow.get(15, TimeUnit.SECONDS);
      if (!slowReply.startsWith("HTTP/1.1 200")) {
        failures.add("the call in flight: " + slowReply);
      }
      assertThat(a.process().waitFor(15, TimeUnit.SECONDS))
          .as("A stopped within the grace period")
          .isTrue();
      stopAt[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
      workers.shutdown();
      assertThat(workers.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
    }
    System.out.printf(
        "rolling restart: %d calls in the stream, %d lost%n", calls.get(), failures.size());
    assertThat(failures)
        .as("of %d calls; A's log: %s", calls.get(), Files.readString(dir.resolve("a.log")))
        .isEmpty();
  }

  /** Posts {@code body} on {@code socket} and closes it: the first part at once, the rest over about two seconds. */
  private static String trickle(Socket opened, byte[] body) {
    try (Socket socket = opened) {
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /hello-world/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      int piece = 15_000; // 150 kB/s: above the minimum rate, so only slow
      for (int at = 0; at < body.length; at += piece) {
        out.write(body, at, Math.min(piece, body.length - at));
        out.flush();
        Thread.sleep(100);
      }
      return new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }
}
