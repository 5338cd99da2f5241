package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testing.Poll;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Back-pressure, the server-side deadline, slow clients and draining, each on a real port. */
class OverloadAndDeadlineTest {
  private static final String BODY = "{\"parent\": {\"metadata\": {\"name\": \"p\", \"namespace\": \"ns\"}}}";
  private final HttpClient client = HttpClient.newHttpClient();
  private final CountDownLatch entered = new CountDownLatch(2);
  private final CountDownLatch release = new CountDownLatch(1);
  private HookServer server;

  /** Waits until the test releases it, so that calls pile up. */
  private final Controller blocking = Controller.composite("blocking").sync(request -> {
    entered.countDown();
    try {
      release.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return CompositeResponse.of(Json.object().put("ok", true), List.of());
  }).build();

  private HookServer start(ServerConfig config) {
    server = new HookServer(config.withPort(0), List.of(blocking)).start();
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
    return HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
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
    assertThat(Json.MAPPER.readTree(third.body()).path("error").asText()).isEqualTo("too_many_requests");
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
    assertThat(Json.MAPPER.readTree(reply.body()).path("error").asText()).isEqualTo("deadline_exceeded");
  }

  @Test
  void aTrickledBodyIsCutAtTheDeadline() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofMillis(300), Duration.ofSeconds(30)));
    try (Socket socket = new Socket("localhost", server.port())) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /blocking/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000\r\n\r\n{\"parent\":").getBytes(StandardCharsets.US_ASCII));
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
        socket.getOutputStream().write("POST /blocking/sync HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
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
  void shutdownFailsReadinessThenDrainsCallsInFlight() throws Exception {
    start(ServerConfig.defaults().withLimits(4, Duration.ofSeconds(10), Duration.ofSeconds(30))
        .withShutdown(Duration.ofMillis(300), Duration.ofSeconds(5)));
    CompletableFuture<HttpResponse<String>> inFlight = post("/blocking/sync");
    Poll.until("the call to enter the hook", () -> entered.getCount() < 2);
    Thread stopper = new Thread(server::shutdownGracefully);
    stopper.start();
    Poll.until("readiness to fail", () -> client.send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + server.port() + "/readyz")).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode() == 503);
    // During the delay calls are still served (a body that is not JSON gets its 400 without blocking); past it,
    // new calls are refused while the one in flight goes on.
    Poll.until("new calls to be refused", () -> post("/blocking/sync", "not json").get(5, TimeUnit.SECONDS)
        .statusCode() != 400);
    HttpResponse<String> refused = post("/blocking/sync").get(5, TimeUnit.SECONDS);
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).contains("shutting_down");
    release.countDown();
    assertThat(inFlight.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    stopper.join(10_000);
    assertThat(stopper.isAlive()).isFalse();
    server = null;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed by the server
    }
  }
}
