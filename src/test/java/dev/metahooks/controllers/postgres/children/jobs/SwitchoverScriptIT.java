package dev.metahooks.controllers.postgres.children.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.testsupport.PostgresServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The switchover Job's command, as the kubelet starts it, against a stand-in for the leader's Patroni REST API, for
 * the answers a real Patroni gives only under load. {@code PatroniJobsIT} runs the same Job against real Patroni
 * for the answers it gives at once (200, 401, 412).
 *
 * <p>The stand-in answers as Patroni 3.0.2 does: {@code POST /switchover} waits for the outcome in
 * {@code poll_failover_result} ({@code patroni/api.py} 527–543), {@code max(10, loop_wait) * 2} one-second polls of the
 * DCS, and then answers 503 "Switchover status unknown" although the switchover goes on; 503 "Switchover failed" once
 * the request is gone from the DCS with the leader unchanged. {@code GET /cluster} gives the lock holder the role
 * {@code leader} ({@code cluster_as_json}, {@code patroni/utils.py} 406–418). Requests need the REST API's basic-auth
 * credentials ({@code check_access}). An answer lost on the way is settled the same way as a 503; a request that
 * never reached Patroni fails at once, as {@code PatroniTlsJobsIT} shows for an untrusted certificate.
 */
class SwitchoverScriptIT {
  private static final String PASSWORD = "rest-api-password";

  @Test
  void aSwitchoverThatOutlastsPatronisWaitEndsWhenTheCandidateHoldsTheLock() throws Exception {
    try (StandInPatroni patroni = new StandInPatroni(503, "Switchover status unknown", 2)) {
      PostgresServer.Result result = run(patroni, Map.of());
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(result.output())
          .contains(
              "HTTP 503 Switchover status unknown",
              "the leader lock is held by orders-0; waiting for orders-1",
              "orders-1 holds the leader lock");
      assertThat(patroni.requests)
          .containsExactly(
              "POST /switchover {\"leader\":\"orders-0\",\"candidate\":\"orders-1\"}",
              "GET /cluster",
              "GET /cluster");
    }
  }

  @Test
  void anAnswerThatNeverArrivesIsSettledTheSameWay() throws Exception {
    try (StandInPatroni patroni = new StandInPatroni(0, "", 1)) {
      PostgresServer.Result result = run(patroni, Map.of());
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(result.output()).contains("HTTP 000", "orders-1 holds the leader lock");
    }
  }

  @Test
  void aFailedSwitchoverFailsTheJobOnceTheTriesAreSpent() throws Exception {
    try (StandInPatroni patroni = new StandInPatroni(503, "Switchover failed", Integer.MAX_VALUE)) {
      PostgresServer.Result result = run(patroni, Map.of("OUTCOME_TRIES", "2"));
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output())
          .contains(
              "HTTP 503 Switchover failed",
              "the leader lock is held by orders-0; waiting for orders-1");
      assertThat(patroni.requests).hasSize(3);
    }
  }

  @Test
  void aRefusalFailsAtOnceWithoutAskingForTheCluster() throws Exception {
    try (StandInPatroni patroni = new StandInPatroni(412, "leader name does not match", 0)) {
      PostgresServer.Result result = run(patroni, Map.of());
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("HTTP 412 leader name does not match");
      assertThat(patroni.requests).hasSize(1);
    }
    try (StandInPatroni patroni =
        new StandInPatroni(200, "Successfully switched over to \"orders-1\"", 0)) {
      PostgresServer.Result wrongPassword =
          run(patroni, Map.of("PATRONI_PASSWORD", "not-the-password"));
      assertThat(wrongPassword.exitCode()).isNotZero();
      assertThat(wrongPassword.output()).contains("HTTP 401");
      assertThat(patroni.requests).hasSize(1);
    }
  }

  @Test
  void aRequestThatNeverReachedPatroniFailsAtOnce() throws Exception {
    try (StandInPatroni patroni = new StandInPatroni(200, "", 0)) {
      int closed;
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        closed = socket.getLocalPort();
      }
      PostgresServer.Result result =
          run(patroni, Map.of("PATRONI_URL", "http://127.0.0.1:" + closed));
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("HTTP 000").doesNotContain("GET /cluster");
    }
  }

  @Test
  void patronisSuccessEndsTheJobWithoutAskingForTheCluster() throws Exception {
    try (StandInPatroni patroni =
        new StandInPatroni(200, "Successfully switched over to \"orders-1\"", 0)) {
      PostgresServer.Result result = run(patroni, Map.of());
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(patroni.requests).hasSize(1);
    }
  }

  private static PostgresServer.Result run(StandInPatroni patroni, Map<String, String> overrides) {
    ObjectNode job =
        Switchovers.job(
            "orders",
            "shop",
            ClusterSpec.DEFAULT_IMAGE,
            PodScheduling.NONE,
            new Rollout.Switchover(
                "orders-switchover-0123456789", "orders-0", "orders-1", Optional.empty()));
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", Names.restApiSecret("orders"));
    secret.putObject("stringData").put("password", PASSWORD);
    Map<String, String> local = new java.util.HashMap<>(Map.of("PATRONI_URL", patroni.url()));
    local.putAll(overrides);
    return RenderedContainers.run(
        RenderedContainers.of(job, Switchovers.CONTAINER, List.of(secret)),
        local,
        Duration.ofMinutes(2));
  }

  /**
   * Answers the POST with {@code code} and {@code answer} (0: closes the connection without an answer), and shows
   * the candidate holding the lock from the {@code movesAfter}-th GET /cluster on.
   */
  private static final class StandInPatroni implements AutoCloseable {
    final List<String> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final AtomicInteger clusterReads = new AtomicInteger();

    StandInPatroni(int code, String answer, int movesAfter) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            try (exchange) {
              String body =
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
              requests.add(
                  (exchange.getRequestMethod()
                          + " "
                          + exchange.getRequestURI().getPath()
                          + " "
                          + body)
                      .strip());
              if (exchange.getRequestMethod().equals("GET")
                  && exchange.getRequestURI().getPath().equals("/cluster")) {
                String leader =
                    clusterReads.incrementAndGet() >= movesAfter ? "orders-1" : "orders-0";
                String replica = leader.equals("orders-0") ? "orders-1" : "orders-0";
                answer(
                    exchange,
                    200,
                    "{\"members\":[{\"name\":\""
                        + replica
                        + "\",\"role\":\"replica\",\"state\":\"running\"},"
                        + "{\"name\":\""
                        + leader
                        + "\",\"role\":\"leader\",\"state\":\"running\"}]}");
              } else if (!authorized(exchange)) {
                answer(exchange, 401, "no auth header received");
              } else if (code != 0) {
                answer(exchange, code, answer);
              }
            }
          });
      server.start();
    }

    private static boolean authorized(HttpExchange exchange) {
      String expected =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(
                      (Spilo.RESTAPI_USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
      return expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
    }

    private static void answer(HttpExchange exchange, int code, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(code, bytes.length);
      exchange.getResponseBody().write(bytes);
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
