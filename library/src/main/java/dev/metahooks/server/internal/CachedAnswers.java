package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.HookResponse;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.Projection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A routed call's answer as bytes: from the response cache when these request bytes were answered before, else the
 * hook ({@link HookRunner}) and the writer ({@link AnswerWriter}), kept for the next time. The steps below throw
 * {@link HookError}; here, once, it becomes the error's reply: nothing leaves but a {@link Reply}.
 */
public final class CachedAnswers {
  private static final Logger LOG = LoggerFactory.getLogger(CachedAnswers.class);

  private final ResponseCache cache;
  private final HookRunner runner;
  private final AnswerWriter writer;

  /** Up to {@code cacheBytes} of recent answers (0: none); answers larger than {@code maxResponseBytes} are 422. */
  CachedAnswers(long cacheBytes, long maxResponseBytes) {
    this.cache = new ResponseCache(cacheBytes);
    this.runner = new HookRunner(maxResponseBytes);
    this.writer = new AnswerWriter(maxResponseBytes);
  }

  /** The answer to a whole request body, as the server sends it; a 200 carries the ETag of its body. */
  Reply answer(Route route, byte[] body) {
    ResponseCache.Key key =
        cache.enabled()
            ? new ResponseCache.Key(route.controllerName(), route.hookPath(), Digests.sha256(body))
            : null;
    if (key != null) {
      Reply hit = cache.get(key);
      LOG.atDebug()
          .addKeyValue("controller", route.controllerName())
          .addKeyValue("hook", route.hookPath())
          .addKeyValue("hit", hit != null)
          .log(
              hit != null
                  ? "answered from the response cache"
                  : "not in the response cache: the hook runs");
      if (hit != null) {
        return hit;
      }
    }
    ObjectNode request = null;
    try {
      request = runner.read(route, body);
      HookResponse response = runner.run(route, request);
      Reply reply = writer.write(route, request, response);
      // An answer that asks to be called again at a time depends on the time: the same bytes then
      // may need another.
      if (key != null && response.resyncAfterSeconds() == null) {
        cache.put(key, reply);
      }
      return reply;
    } catch (HookError e) {
      return AnswerWriter.error(e, CallSummary.of(route.hookPath(), request, null));
    }
  }

  /** The controller's answer before it is written (for what measures or compares the writer). */
  HookResponse response(Route route, byte[] body) {
    return runner.run(route, runner.read(route, body));
  }

  /** Drops the response cache's answers (between the warm-up's rounds, so that hooks run too). */
  public void emptyCache() {
    cache.clear();
  }

  /** After the warm-up: nothing it answered stays in the cache, and none of its lookups counts. */
  public void forgetWarmUp() {
    cache.restart();
  }

  /** Bytes the response cache holds. */
  long cacheBytes() {
    return cache.bytes();
  }

  /** The response cache's lookups found and not found, and answers it evicted, since the start. */
  CacheStats cacheStats() {
    return cache.stats();
  }

  /**
   * Builds what the first call would otherwise build on its way: Jackson's serializers of the three answer types,
   * the parser, the digest. Run on a thread of its own while Jetty starts, it takes that time off the first sync.
   */
  public static void prepare() {
    try {
      AnswerWriter.prepare(
          CompositeResponse.of(
                  Json.object().put("ready", true), List.of(Json.object().put("kind", "Pod")))
              .withFinalized(false)
              .withResyncAfterSeconds(1),
          new DecoratorResponse(
              Map.of("k", "v"), null, Json.object(), List.of(Json.object()), 1.0, false),
          CustomizeResponse.of(
              CustomizeResponse.RelatedResourceRule.of("v1", "pods").inNamespace("default")));
      JsonTrees.parse(
          "{\"parent\": {\"metadata\": {\"name\": \"x\"}}, \"children\": {}}"
              .getBytes(StandardCharsets.UTF_8),
          Projection.NONE);
    } catch (IOException e) {
      LOG.atDebug().addKeyValue("error", e.toString()).log("warm-up");
    }
    AnswerWriter.error(
        new HookError(ErrorCode.INVALID_REQUEST, "warm-up", "field"), CallSummary.UNREAD);
    Digests.sha256(new byte[1]);
  }
}
