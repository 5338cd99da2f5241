package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metacontroller's ETag protocol (metacontroller.md, section 3) and the response cache, over HTTP on a real port: every 200 has
 * an ETag that is the SHA-256 of its body, a matching If-None-Match gets 304 without a body, and the same
 * request bytes for the same hook run the hook once.
 */
class ETagAndCacheTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final String HELLO =
      new String(
          Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json")),
          StandardCharsets.UTF_8);

  /** How often each hook of the counting controller ran, by hook path. */
  private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  private HookServer server;

  private HookServer start(long cacheBytes) {
    Controller counting =
        Controller.composite("counting")
            .sync(
                request -> {
                  runs.computeIfAbsent("sync", k -> new AtomicInteger()).incrementAndGet();
                  if (request.parent().path("spec").path("invalid").asBoolean()) {
                    throw new InvalidRequestException("parent.spec.invalid", "is set");
                  }
                  String padding = request.parent().path("spec").path("padding").asText();
                  ObjectNode status =
                      Json.object()
                          .put("name", request.name())
                          .put("size", padding.length())
                          .put("padding", padding);
                  return CompositeResponse.of(status, List.of());
                })
            .finalize(
                request -> {
                  runs.computeIfAbsent("finalize", k -> new AtomicInteger()).incrementAndGet();
                  return CompositeResponse.of(Json.object().put("finalizing", true), List.of())
                      .withFinalized(true);
                })
            .build();
    server =
        new HookServer(
                ServerConfig.defaults().withPort(0).withResponseCacheBytes(cacheBytes),
                List.of(
                    counting,
                    dev.metahooks.controllers.helloworld.HelloWorldController.controller()))
            .start();
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String parent(String name, String padding) {
    // Being deleted, so that the same bytes are a valid finalize call too.
    return "{\"parent\": {\"apiVersion\": \"x/v1\", \"kind\": \"Counted\", \"metadata\": {\"name\": \""
        + name
        + "\", \"namespace\": \"ns\", \"deletionTimestamp\": \"2026-11-30T10:00:00Z\"}, \"spec\": {\"padding\": \""
        + padding
        + "\"}}, \"children\": {}}";
  }

  private HttpResponse<byte[]> post(String path, String body, String ifNoneMatch) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private int runs(String hook) {
    return runs.getOrDefault(hook, new AtomicInteger()).get();
  }

  private static String sha256(byte[] body) throws Exception {
    return '"'
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(MessageDigest.getInstance("SHA-256").digest(body))
        + '"';
  }

  @Test
  void everyOkAnswerCarriesTheHashOfItsBodyAsETag() throws Exception {
    start(ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES);
    HttpResponse<byte[]> reply = post("/hello-world/sync", HELLO, null);
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.headers().firstValue("ETag")).hasValue(sha256(reply.body()));

    HttpResponse<byte[]> other = post("/counting/sync", parent("a", ""), null);
    assertThat(other.headers().firstValue("ETag"))
        .hasValue(sha256(other.body()))
        .isNotEqualTo(reply.headers().firstValue("ETag"));
  }

  @Test
  void aMatchingIfNoneMatchGets304WithoutABody() throws Exception {
    start(ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES);
    HttpResponse<byte[]> first = post("/hello-world/sync", HELLO, null);
    String etag = first.headers().firstValue("ETag").orElseThrow();

    HttpResponse<byte[]> again = post("/hello-world/sync", HELLO, etag);
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
    assertThat(again.headers().firstValue("ETag")).hasValue(etag);
    assertThat(again.headers().firstValue("Content-Type")).isEmpty();
  }

  @Test
  void aStaleIfNoneMatchGetsTheNewBody() throws Exception {
    start(ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES);
    String stale =
        post("/counting/sync", parent("a", "old"), null).headers().firstValue("ETag").orElseThrow();
    HttpResponse<byte[]> changed = post("/counting/sync", parent("a", "newer"), stale);
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(JsonTrees.MAPPER.readTree(changed.body()).at("/status/size").asInt()).isEqualTo(5);
    assertThat(changed.headers().firstValue("ETag"))
        .hasValue(sha256(changed.body()))
        .isNotEqualTo(stale);
  }

  @Test
  void aComputedAnswerEqualToTheCachedOneAlsoGets304() throws Exception {
    start(0); // no cache: the answer is computed again, and its ETag still matches
    String etag =
        post("/counting/sync", parent("a", "x"), null).headers().firstValue("ETag").orElseThrow();
    HttpResponse<byte[]> again = post("/counting/sync", parent("a", "x"), etag);
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(runs("sync")).isEqualTo(2);
  }

  @Test
  void theSameRequestBytesRunTheHookOnce() throws Exception {
    start(ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES);
    HttpResponse<byte[]> first = post("/counting/sync", parent("a", "x"), null);
    HttpResponse<byte[]> second = post("/counting/sync", parent("a", "x"), null);
    assertThat(runs("sync")).isEqualTo(1);
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));

    post("/counting/sync", parent("b", "x"), null); // other bytes: run again
    post("/counting/sync", parent("a", "x") + " ", null); // one byte more is another request
    assertThat(runs("sync")).isEqualTo(3);

    post("/counting/finalize", parent("a", "x"), null); // same bytes, other hook
    assertThat(runs("finalize")).isEqualTo(1);
    assertThat(metric("metahooks_response_cache_lookups_total{result=\"hit\"")).isEqualTo(1);
  }

  /**
   * A hook that waits for a time answers "come back then" (resyncAfterSeconds); when Metacontroller comes back with
   * the same bytes, the hook must run again and see that the time has come, not get the waiting answer replayed.
   */
  @Test
  void anAnswerThatAsksToBeCalledAgainLaterIsNotReplayed() throws Exception {
    java.util.concurrent.atomic.AtomicReference<java.time.Instant> clock =
        new java.util.concurrent.atomic.AtomicReference<>(
            java.time.Instant.parse("2026-01-03T00:59:00Z"));
    java.time.Instant opens = java.time.Instant.parse("2026-01-03T01:00:00Z");
    Controller window =
        Controller.composite("window")
            .sync(
                request -> {
                  runs.computeIfAbsent("sync", k -> new AtomicInteger()).incrementAndGet();
                  java.time.Instant now = clock.get();
                  if (now.isBefore(opens)) {
                    return CompositeResponse.of(
                            Json.object().put("step", "WaitingForWindow"), List.of())
                        .withResyncAfterSeconds(java.time.Duration.between(now, opens).toSeconds());
                  }
                  return CompositeResponse.of(Json.object().put("step", "Switchover"), List.of());
                })
            .build();
    server = new HookServer(ServerConfig.defaults().withPort(0), List.of(window)).start();

    HttpResponse<byte[]> waiting = post("/window/sync", parent("a", ""), null);
    assertThat(JsonTrees.MAPPER.readTree(waiting.body()).path("resyncAfterSeconds").asDouble())
        .isEqualTo(60.0);
    clock.set(opens);
    HttpResponse<byte[]> opened = post("/window/sync", parent("a", ""), null);
    assertThat(runs("sync")).as("the hook ran again for the same bytes").isEqualTo(2);
    assertThat(JsonTrees.MAPPER.readTree(opened.body()).at("/status/step").asText())
        .isEqualTo("Switchover");

    // An answer without a time in it is kept as before: the same bytes again come from the cache.
    post("/window/sync", parent("a", ""), null);
    assertThat(runs("sync")).isEqualTo(2);
  }

  @Test
  void errorsAreNeitherCachedNorTagged() throws Exception {
    start(ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES);
    String invalid = parent("a", "x").replace("\"padding\"", "\"invalid\": true, \"padding\"");
    HttpResponse<byte[]> first = post("/counting/sync", invalid, null);
    post("/counting/sync", invalid, null);
    assertThat(first.statusCode()).isEqualTo(422);
    assertThat(first.headers().firstValue("ETag")).isEmpty();
    assertThat(runs("sync")).isEqualTo(2);

    HttpResponse<byte[]> malformed = post("/counting/sync", "{\"parent\": ", "\"anything\"");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.headers().firstValue("ETag")).isEmpty();
  }

  @Test
  void aZeroSizedCacheRunsEveryCall() throws Exception {
    start(0);
    post("/counting/sync", parent("a", "x"), null);
    post("/counting/sync", parent("a", "x"), null);
    assertThat(runs("sync")).isEqualTo(2);
  }

  @Test
  void theCacheKeepsWithinItsBytesAndKeepsWhatIsAskedForAgain() throws Exception {
    start(8 * 1024); // one entry may take 4 KiB: about five answers of ~1.3 KiB fit
    String padding = "p".repeat(1000);
    for (int i = 0; i < 20; i++) {
      post("/counting/sync", parent("n" + i, padding), null);
    }
    assertThat(runs("sync")).isEqualTo(20);
    assertThat(metric("metahooks_response_cache_bytes")).isBetween(1.0, 8 * 1024.0);
    assertThat(metric("metahooks_response_cache_evictions_total")).isPositive();
    // Caffeine admits by how often a request comes (a resync repeats it), not by how recently it
    // came once.
    for (int i = 0; i < 3; i++) {
      post("/counting/sync", parent("resynced", padding), null);
    }
    assertThat(runs("sync")).isBetween(21, 22);
    int runs = runs("sync");
    post("/counting/sync", parent("resynced", padding), null);
    assertThat(runs("sync")).as("asked for again: kept").isEqualTo(runs);
    post("/counting/sync", parent("n0", padding), null); // asked for once, long ago: evicted
    assertThat(runs("sync")).isEqualTo(runs + 1);

    post("/counting/sync", parent("big", "p".repeat(4500)), null); // beyond half: never kept
    post("/counting/sync", parent("big", "p".repeat(4500)), null);
    assertThat(runs("sync")).isEqualTo(runs + 3);
    assertThat(metric("metahooks_response_cache_bytes")).isBetween(1.0, 8 * 1024.0);
  }

  @Test
  void theCacheSizeIsASetting() {
    assertThat(ServerConfig.fromEnvironment(Map.of()).responseCacheBytes())
        .isEqualTo(32L * 1024 * 1024);
    assertThat(
            ServerConfig.fromEnvironment(Map.of("METAHOOKS_RESPONSE_CACHE_BYTES", "0"))
                .responseCacheBytes())
        .isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ServerConfig.fromEnvironment(Map.of("METAHOOKS_RESPONSE_CACHE_BYTES", "-1")))
        .hasMessageContaining("METAHOOKS_RESPONSE_CACHE_BYTES");
  }

  private double metric(String prefix) throws IOException, InterruptedException {
    String text =
        CLIENT
            .send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return text.lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(prefix + " in " + text));
  }
}
