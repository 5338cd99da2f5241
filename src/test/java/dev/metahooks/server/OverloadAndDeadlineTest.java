package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Back-pressure, the server-side deadline, slow clients and draining, each on a real port. */
class OverloadAndDeadlineTest {
  private static final String BODY =
      "{\"parent\": {\"metadata\": {\"name\": \"p\", \"namespace\": \"ns\"}}}";
  private final HttpClient client = HttpClient.newHttpClient();
  private final CountDownLatch entered = new CountDownLatch(2);
  private final CountDownLatch release = new CountDownLatch(1);
  private HookServer server;

  /** Waits until the test releases it, so that calls pile up. */
  private final Controller blocking =
      Controller.composite("blocking")
          .sync(
              request -> {
                entered.countDown();
                try {
                  release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return CompositeResponse.of(Json.object().put("ok", true), List.of());
              })
          .build();

  /** Waits until the test releases it, and goes on waiting when interrupted: a hook that cannot be stopped. */
  private final Controller stubborn =
      Controller.composite("stubborn")
          .sync(
              request -> {
                entered.countDown();
                boolean interrupted = false;
                while (release.getCount() > 0) {
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    interrupted = true;
                  }
                }
                if (interrupted) {
                  Thread.currentThread().interrupt();
                }
                return CompositeResponse.of(Json.object().put("ok", true), List.of());
              })
          .build();

  /** Answers at once. */
  private final Controller fast =
      Controller.composite("fast")
          .sync(request -> CompositeResponse.of(Json.object().put("ok", true), List.of()))
          .build();

  /** Answers with 8 MB, more than a socket's buffers take from a client that does not read. */
  private final Controller large =
      Controller.composite("large")
          .sync(
              request ->
                  CompositeResponse.of(
                      Json.object().put("padding", "x".repeat(8 << 20)), List.of()))
          .build();

  private HookServer start(ServerConfig config) {
    server = new HookServer(config.withPort(0), List.of(blocking, stubborn, fast, large)).start();
    return server;
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (server != null) {
      server.close();
    }
  }

  /** A fresh client each time: a connection the server closed while draining must not be reused. */
  private CompletableFuture<HttpResponse<String>> post(String path) {
    return post(path, BODY);
  }

  private CompletableFuture<HttpResponse<String>> post(String path, String body) {
    return HttpClient.newHttpClient()
        .sendAsync(
            HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void beyondTheBoundCallsGet429WithRetryAfter() throws Exception {
    start(ServerConfig.defaults().withLimits(2, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    CompletableFuture<HttpResponse<String>> first = post("/blocking/sync");
    CompletableFuture<HttpResponse<String>> second = post("/blocking/sync");
    assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
    HttpResponse<String> third = post("/blocking/sync").get(5, TimeUnit.SECONDS);
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.headers().firstValue("Retry-After")).contains("1");
    assertThat(JsonTrees.MAPPER.readTree(third.body()).path("error").asText())
        .isEqualTo("too_many_requests");
    release.countDown();
    assertThat(first.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(second.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(post("/blocking/sync").get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }

  @Test
  void aCallPastTheDeadlineGets503() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofMillis(300), Duration.ofSeconds(30)));
    HttpResponse<String> reply = post("/blocking/sync").get(5, TimeUnit.SECONDS);
    assertThat(reply.statusCode()).isEqualTo(503);
    assertThat(JsonTrees.MAPPER.readTree(reply.body()).path("error").asText())
        .isEqualTo("deadline_exceeded");
  }

  @Test
  void aCallPastItsDeadlineGivesBackItsBodyBudgetAtOnceEvenIfItsHookGoesOn() throws Exception {
    // A budget for one 40 kB body: the next one fits only once the first call has given its bytes
    // back.
    start(
        ServerConfig.defaults()
            .withLimits(2, Duration.ofMillis(500), Duration.ofSeconds(30))
            .withMemory(64 * 1024, ServerConfig.defaults().maxResponseBytes()));
    String padded = padded(40_000);
    HttpResponse<String> first = post("/stubborn/sync", padded).get(5, TimeUnit.SECONDS);
    assertThat(first.statusCode()).isEqualTo(503);
    assertThat(JsonTrees.MAPPER.readTree(first.body()).path("error").asText())
        .isEqualTo("deadline_exceeded");
    assertThat(entered.getCount()).as("the stubborn hook is still running").isEqualTo(1);
    HttpResponse<String> next = post("/fast/sync", padded).get(5, TimeUnit.SECONDS);
    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
  }

  @Test
  void aCallPastItsDeadlineStopsItsWorkAndTheNextCallGetsItsSlot() throws Exception {
    // One hook slot and one compute slot: the next call is computed only once the first call's work
    // has stopped.
    start(ServerConfig.defaults().withLimits(1, Duration.ofMillis(500), Duration.ofSeconds(30)));
    HttpResponse<String> first = post("/blocking/sync").get(5, TimeUnit.SECONDS);
    assertThat(first.statusCode()).isEqualTo(503);
    // On the one hook thread, which kept no interruption for its next call either.
    HttpResponse<String> next = post("/fast/sync").get(5, TimeUnit.SECONDS);
    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
  }

  private static String padded(int bytes) {
    return BODY.replaceFirst("\\{", "{\"padding\": \"" + "x".repeat(bytes) + "\", ");
  }

  @Test
  void aTrickledBodyIsCutAtTheDeadline() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofMillis(300), Duration.ofSeconds(30)));
    try (Socket socket = new Socket("localhost", server.port())) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /blocking/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 1000\r\n\r\n{\"parent\":")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String reply = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(reply).isEqualTo("HTTP/1.1 503");
    }
  }

  @Test
  void idleAndHalfSentConnectionsDoNotBlockOthers() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofSeconds(5), Duration.ofMillis(500)));
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 64; i++) {
        Socket socket = new Socket("localhost", server.port());
        socket
            .getOutputStream()
            .write(
                "POST /blocking/sync HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
        slow.add(socket);
      }
      release.countDown();
      assertThat(post("/blocking/sync").get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      // Past the idle timeout the server has closed the half-sent connections.
      Socket first = slow.get(0);
      first.setSoTimeout(5000);
      InputStream in = first.getInputStream();
      assertThat(in.readAllBytes()).isNotNull();
      assertThat(in.read()).isEqualTo(-1);
    } finally {
      for (Socket socket : slow) {
        closeQuietly(socket);
      }
    }
  }

  @Test
  void shutdownFailsReadinessThenServesOpenConnectionsUntilCallsInFlightEnd() throws Exception {
    start(
        ServerConfig.defaults()
            .withLimits(4, Duration.ofSeconds(10), Duration.ofSeconds(30))
            .withShutdown(Duration.ofMillis(300), Duration.ofSeconds(5)));
    CompletableFuture<HttpResponse<String>> inFlight = post("/blocking/sync");
    Poll.until("the call to enter the hook", () -> entered.getCount() < 2);
    int port = server.port(); // the server no longer says, once it stops listening
    try (Socket kept =
        new Socket("localhost", port)) { // a caller's kept-alive connection, opened before
      kept.setSoTimeout(5000);
      Thread stopper = new Thread(server::shutdownGracefully);
      stopper.start();
      Poll.until(
          "readiness to fail",
          () ->
              client
                      .send(
                          HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/readyz"))
                              .build(),
                          HttpResponse.BodyHandlers.discarding())
                      .statusCode()
                  == 503);
      // Past the delay no new connection is taken: the pod has left the endpoints.
      Poll.until(
          "new connections to be refused",
          () -> {
            try (Socket probe = new Socket("localhost", port)) {
              return false;
            } catch (java.net.ConnectException e) {
              return true;
            }
          });
      // A call on a connection opened before is still answered, and told to close it; the one in
      // flight goes on.
      kept.getOutputStream()
          .write(
              ("POST /fast/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Content-Length: "
                      + BODY.length()
                      + "\r\n\r\n"
                      + BODY)
                  .getBytes(StandardCharsets.US_ASCII));
      assertThat(readResponse(kept.getInputStream()))
          .startsWith("HTTP/1.1 200")
          .containsIgnoringCase("Connection: close");
      release.countDown();
      assertThat(inFlight.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      stopper.join(10_000);
      assertThat(stopper.isAlive()).isFalse();
    }
    server = null;
  }

  @Test
  void bodiesBeyondTheByteBudgetWaitBrieflyThenGet429() throws Exception {
    start(
        ServerConfig.defaults()
            .withLimits(8, Duration.ofSeconds(2), Duration.ofSeconds(30))
            .withMemory(64 * 1024, ServerConfig.defaults().maxResponseBytes()));
    String padded = padded(40_000);
    CompletableFuture<HttpResponse<String>> first = post("/blocking/sync", padded);
    awaitEntered(1);
    // A second 40 kB body does not fit the 64 KiB beside the first: refused before a byte of it is
    // read.
    HttpResponse<String> second = post("/blocking/sync", padded).get(5, TimeUnit.SECONDS);
    assertThat(second.statusCode()).isEqualTo(429);
    assertThat(second.headers().firstValue("Retry-After")).contains("1");
    assertThat(JsonTrees.MAPPER.readTree(second.body()).path("message").asText())
        .contains("METAHOOKS_BODY_BUDGET_BYTES");
    // A chunked body (no Content-Length) takes budget as it grows, and is refused when it no longer
    // fits.
    HttpResponse<String> chunked =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://localhost:" + server.port() + "/blocking/sync"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () ->
                                new java.io.ByteArrayInputStream(
                                    padded.getBytes(StandardCharsets.UTF_8))))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(chunked.statusCode()).isEqualTo(429);
    release.countDown();
    assertThat(first.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(post("/blocking/sync", padded).get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }

  @Test
  void aBurstOfConnectionsIsAnsweredNotReset() throws Exception {
    start(ServerConfig.defaults().withLimits(2, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    int connections = 1000;
    List<java.nio.channels.SocketChannel> opened = new ArrayList<>();
    try {
      // Connected all at once, before the acceptor takes any: the kernel's accept queue holds them
      // meanwhile.
      for (int i = 0; i < connections; i++) {
        java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open();
        channel.configureBlocking(false);
        channel.connect(new java.net.InetSocketAddress("localhost", server.port()));
        opened.add(channel);
      }
      byte[] request =
          ("POST /fast/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                  + BODY.length()
                  + "\r\nConnection: close\r\n\r\n"
                  + BODY)
              .getBytes(StandardCharsets.US_ASCII);
      for (java.nio.channels.SocketChannel channel : opened) {
        channel.configureBlocking(true);
        assertThat(channel.finishConnect()).isTrue();
        channel.write(java.nio.ByteBuffer.wrap(request));
      }
      int answered = 0;
      for (java.nio.channels.SocketChannel channel : opened) {
        channel.socket().setSoTimeout(20_000);
        String status =
            new String(channel.socket().getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
        assertThat(status).as("connection %d", answered).isIn("HTTP/1.1 200", "HTTP/1.1 429");
        answered++;
      }
      assertThat(answered).isEqualTo(connections);
    } finally {
      for (java.nio.channels.SocketChannel channel : opened) {
        channel.close();
      }
    }
  }

  @Test
  void aTrickledBodyHoldsNoComputeSlot() throws Exception {
    ServerConfig config =
        ServerConfig.defaults().withLimits(8, Duration.ofSeconds(10), Duration.ofSeconds(30));
    start(config);
    List<Socket> trickling = new ArrayList<>();
    try {
      for (int i = 0; i <= config.computeSlots(); i++) { // one more than there are compute slots
        Socket socket = new Socket("localhost", server.port());
        socket
            .getOutputStream()
            .write(
                ("POST /fast/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"parent\":")
                    .getBytes(StandardCharsets.US_ASCII));
        trickling.add(socket);
      }
      assertThat(post("/fast/sync", BODY).get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    } finally {
      trickling.forEach(OverloadAndDeadlineTest::closeQuietly);
    }
  }

  @Test
  void stalledBodiesHoldNoHookSlot() throws Exception {
    start(ServerConfig.defaults().withLimits(2, Duration.ofSeconds(5), Duration.ofSeconds(30)));
    List<Socket> stalled = new ArrayList<>();
    try {
      for (int i = 0;
          i < 6;
          i++) { // three times the hook slots, each with half a body, then nothing
        Socket socket = new Socket("localhost", server.port());
        socket
            .getOutputStream()
            .write(
                ("POST /fast/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"parent\":")
                    .getBytes(StandardCharsets.US_ASCII));
        stalled.add(socket);
      }
      Thread.sleep(200); // their bodies are being waited for
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> reply = post("/fast/sync", BODY).get(5, TimeUnit.SECONDS);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
      }
    } finally {
      stalled.forEach(OverloadAndDeadlineTest::closeQuietly);
    }
  }

  @Test
  void aBodyTrickledBelowTheMinimumRateIs408AndItsConnectionClosed() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofSeconds(8), Duration.ofSeconds(30)));
    try (Socket socket = new Socket("localhost", server.port())) {
      socket.setSoTimeout(6000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /fast/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 1000\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      long started = System.nanoTime();
      for (int i = 0; i < 1000 && in.available() == 0; i++) { // a byte every 50 ms: 20 bytes/s
        out.write(' ');
        out.flush();
        Thread.sleep(50);
      }
      String reply = readResponse(in);
      assertThat(reply)
          .startsWith("HTTP/1.1 408")
          .containsIgnoringCase("Connection: close")
          .contains("bytes/s");
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("cut soon after the first second")
          .isLessThan(Duration.ofSeconds(4));
    }
  }

  @Test
  void anAnswerReadTooSlowlyIsCutAtTheWriteTimeout() throws Exception {
    start(ServerConfig.defaults().withWriteTimeout(Duration.ofSeconds(1)));
    try (Socket socket = new Socket()) {
      socket.setReceiveBufferSize(1024);
      socket.connect(new java.net.InetSocketAddress("localhost", server.port()));
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("POST /large/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Content-Length: "
                      + BODY.length()
                      + "\r\n\r\n"
                      + BODY)
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      long started = System.nanoTime();
      long read = 0;
      byte[] piece = new byte[1024];
      try {
        // A kilobyte every 20 ms: always some progress (Jetty's idle timeout never fires), 8 MB
        // would take 160 s.
        for (int n;
            (n = in.read(piece)) >= 0
                && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(8); ) {
          read += n;
          Thread.sleep(20);
        }
      } catch (java.net.SocketException e) {
        // reset by the server: cut as well
      }
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("cut after %d bytes", read)
          .isLessThan(Duration.ofSeconds(8));
      assertThat(read).isLessThan(8L << 20);
    }
  }

  @Test
  void clientsThatNeverReadTheirAnswersStarveNeitherProbesNorOtherCallers() throws Exception {
    start(ServerConfig.defaults().withWriteTimeout(Duration.ofSeconds(1)));
    List<Socket> readers = new ArrayList<>();
    try {
      for (int i = 0; i < 36; i++) {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(
            1024); // before connecting: the window the server sees stays small
        socket.connect(new java.net.InetSocketAddress("localhost", server.port()));
        socket
            .getOutputStream()
            .write(
                ("POST /large/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: "
                        + BODY.length()
                        + "\r\n\r\n"
                        + BODY)
                    .getBytes(StandardCharsets.US_ASCII));
        readers.add(socket);
      }
      HttpClient prober = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      HttpResponse<String> health =
          prober.send(
              HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/healthz"))
                  .timeout(Duration.ofSeconds(3))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(post("/fast/sync", BODY).get(5, TimeUnit.SECONDS).statusCode()).isIn(200, 429);
      // Past the write timeout the abandoned answers are counted, and callers are served again.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      // The series is there from the start, at 0: wait for a count.
      Pattern counted =
          Pattern.compile(
              "metahooks_hook_answers_unwritten_total\\{controller=\"large\",hook=\"sync\"} [1-9]");
      String metrics = "";
      while (System.nanoTime() < deadline && !counted.matcher(metrics).find()) {
        metrics =
            prober
                .send(
                    HttpRequest.newBuilder(
                            URI.create("http://localhost:" + server.port() + "/metrics"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        Thread.sleep(50);
      }
      assertThat(metrics).containsPattern(counted);
      assertThat(post("/fast/sync", BODY).get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    } finally {
      readers.forEach(OverloadAndDeadlineTest::closeQuietly);
    }
  }

  @Test
  void onSigtermKeptAliveConnectionsAreToldToClose() throws Exception {
    start(ServerConfig.defaults().withShutdown(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    try (Socket socket = new Socket("localhost", server.port())) {
      socket.setSoTimeout(5000);
      String request =
          "POST /fast/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
              + BODY.length()
              + "\r\n\r\n"
              + BODY;
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String before = readResponse(socket.getInputStream());
      assertThat(before).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("Connection: close");
      Thread stopper = new Thread(server::shutdownGracefully);
      stopper.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (System.nanoTime() < deadline
          && client
                  .send(
                      HttpRequest.newBuilder(
                              URI.create("http://localhost:" + server.port() + "/readyz"))
                          .build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode()
              != 503) {
        Thread.sleep(10);
      }
      // Still accepting and serving (the shutdown delay), but the kept-alive connection is told to
      // go.
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String during = readResponse(socket.getInputStream());
      assertThat(during).startsWith("HTTP/1.1 200").containsIgnoringCase("Connection: close");
      assertThat(socket.getInputStream().read())
          .as("closed by the server, not reset")
          .isEqualTo(-1);
      stopper.join(10_000);
      server = null;
    }
  }

  private void awaitEntered(int calls) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (entered.getCount() > 2 - calls && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(entered.getCount()).isEqualTo(2 - calls);
  }

  /** One HTTP/1.1 response with a Content-Length, read off a kept-alive connection. */
  private static String readResponse(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) b);
    }
    java.util.regex.Matcher length =
        java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
    int bodyLength = length.find() ? Integer.parseInt(length.group(1)) : 0;
    return head + new String(in.readNBytes(bodyLength), StandardCharsets.UTF_8);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed by the server
    }
  }
}
