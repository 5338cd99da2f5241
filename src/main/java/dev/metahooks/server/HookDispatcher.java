package dev.metahooks.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.HookResponse;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.Projection;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a request body for {@code /<controller>/<hook>} into an answer: status code and JSON body. The HTTP
 * server and the offline CLI both go through here, so a fixture answers the same through either.
 *
 * <p>Every failure becomes a JSON error body ({@link HookError#from}): 4xx for what the caller can fix, 500 for a
 * fault in a controller. A 500 makes Metacontroller retry and change nothing, which is the safe answer; a 200
 * with a partial child list would make it delete children.
 */
public final class HookDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(HookDispatcher.class);

  /**
   * What the dispatcher answered: an HTTP status, a JSON-serialisable body (a {@link HookResponse} or a
   * {@link HookError.Body}), a metrics outcome, and the request ({@code null} when the body could not be read).
   */
  public record Answer(int status, Object body, String outcome, ObjectNode request) {
    static Answer ok(HookResponse response, ObjectNode request) {
      return new Answer(200, response, "ok", request);
    }

    static Answer failed(HookError error, ObjectNode request) {
      return new Answer(error.status(), error.body(), error.code().code(), request);
    }

    public boolean ok() {
      return status == 200;
    }

    /** The hook's response; null for an error. */
    HookResponse response() {
      return body instanceof HookResponse response ? response : null;
    }
  }

  private final Map<String, Controller> controllers;
  /** What the server leaves unread of each controller's observed objects, from what its hooks read. */
  private final Map<String, Projection> unread = new TreeMap<>();
  private final ResponseCache cache;
  private final long maxResponseBytes;
  private final AnswerWriter answers;
  /** Set only by {@link #parsingWhole}: requests are parsed whole, whatever the controllers declare they read. */
  private boolean parseWhole;

  /** A dispatcher without a response cache: every call runs its hook. */
  public HookDispatcher(List<Controller> controllers) {
    this(controllers, 0, AnswerSize.defaultLimit());
  }

  /**
   * A dispatcher whose {@link #reply} keeps up to {@code cacheBytes} of recent answers (0: none), so that the
   * same request bytes for the same hook are answered without running the hook again, and refuses answers larger
   * than {@code maxResponseBytes} with 422 (estimated by the hooks that amplify, and bounded while written).
   */
  public HookDispatcher(List<Controller> controllers, long cacheBytes, long maxResponseBytes) {
    this.cache = new ResponseCache(cacheBytes);
    this.maxResponseBytes = maxResponseBytes;
    this.answers = new AnswerWriter(maxResponseBytes);
    Map<String, Controller> byName = new TreeMap<>();
    for (Controller controller : controllers) {
      if (byName.put(controller.name(), controller) != null) {
        throw new IllegalArgumentException("two controllers named " + controller.name());
      }
      unread.put(controller.name(), Projection.of(controller.reads()));
    }
    this.controllers = byName;
  }

  /**
   * A dispatcher without a response cache that parses every request whole, ignoring what the controllers declare
   * they read (a builder's {@code reads}): what a projected parse must answer exactly like.
   */
  public static HookDispatcher parsingWhole(List<Controller> controllers) {
    HookDispatcher dispatcher = new HookDispatcher(controllers);
    dispatcher.parseWhole = true;
    return dispatcher;
  }

  /**
   * Answers a whole request body as bytes, the way the HTTP server serves it: from the response cache when these
   * bytes were answered before, else by running the hook; a 200 carries the ETag of its body.
   */
  public Reply reply(String controllerName, String hookPath, byte[] body) {
    ResponseCache.Key key = cache.enabled() && serves(controllerName, hookPath)
        ? new ResponseCache.Key(controllerName, hookPath, Digests.sha256(body)) : null;
    if (key != null) {
      Reply hit = cache.get(key);
      LOG.atDebug().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
          .addKeyValue("hit", hit != null).log(hit != null ? "answered from the response cache"
              : "not in the response cache: the hook runs");
      if (hit != null) {
        return hit;
      }
    }
    Answer answer = dispatch(controllerName, hookPath, body);
    AnswerWriter.Written written;
    try {
      written = answers.write(answer.body());
    } catch (AnswerWriter.TooLargeException e) {
      answer = Answer.failed(HookError.from(e), answer.request());
      written = AnswerWriter.Written.of(HookError.from(e));
    } catch (IOException | RuntimeException e) { // never a 200 with a body Metacontroller cannot read
      LOG.atError().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
          .addKeyValue("error", e.toString()).log("response cannot be written as JSON");
      HookError error = new HookError(ErrorCode.INTERNAL_ERROR, "the response could not be serialised");
      answer = Answer.failed(error, answer.request());
      written = AnswerWriter.Written.of(error);
    }
    CallSummary summary = CallSummary.of(hookPath, answer.request(), answer.response());
    if (!answer.ok()) {
      return new Reply(answer.status(), written.bytes(), null, answer.outcome(), summary, false);
    }
    Reply reply = new Reply(200, written.bytes(), written.etag(), answer.outcome(), summary, false);
    // An answer that asks to be called again at a time depends on the time: the same bytes then may need another.
    if (key != null && answer.response().resyncAfterSeconds() == null) {
      cache.put(key, reply);
    }
    return reply;
  }

  /**
   * Builds what the first call would otherwise build on its way: Jackson's serializers of the three answer types,
   * the parser, the digest. Run on a thread of its own while Jetty starts, it takes that time off the first sync.
   */
  static void warmUp() {
    AnswerWriter writer = new AnswerWriter(Long.MAX_VALUE);
    try {
      writer.write(CompositeResponse.of(Json.object().put("ready", true), List.of(Json.object().put("kind", "Pod")))
          .withFinalized(false).withResyncAfterSeconds(1));
      writer.write(new DecoratorResponse(Map.of("k", "v"), null, Json.object(), List.of(Json.object()), 1.0, false));
      writer.write(CustomizeResponse.of(
          CustomizeResponse.RelatedResourceRule.of("v1", "pods").inNamespace("default")));
    } catch (IOException e) {
      LOG.atDebug().addKeyValue("error", e.toString()).log("warm-up");
    }
    AnswerWriter.error(new HookError(ErrorCode.INVALID_REQUEST, "warm-up", "field"));
    readObject("{\"parent\": {\"metadata\": {\"name\": \"x\"}}, \"children\": {}}".getBytes(StandardCharsets.UTF_8));
    Digests.sha256(new byte[1]);
  }

  /** Runs the hook on a whole request body held in memory (parsing from an array is the fastest Jackson path). */
  public Answer dispatch(String controllerName, String hookPath, byte[] body) {
    return dispatch(controllerName, hookPath, unread -> readObject(body, unread));
  }

  public Answer dispatch(String controllerName, String hookPath, InputStream body) {
    return dispatch(controllerName, hookPath, unread -> readObject(body.readAllBytes(), unread));
  }

  /** Drops the response cache's answers (between the warm-up's rounds, so that hooks run too). */
  void emptyCache() {
    cache.clear();
  }

  /** After the warm-up: nothing it answered stays in the cache, and none of its lookups counts. */
  void forgetWarmUp() {
    cache.restart();
  }

  /** Bytes the response cache holds. */
  public long cacheBytes() {
    return cache.bytes();
  }

  /** The response cache's lookups found and not found, and answers it evicted, since the start. */
  public CacheStats cacheStats() {
    return cache.stats();
  }

  public Optional<Controller> controller(String name) {
    return Optional.ofNullable(controllers.get(name));
  }

  public List<Controller> controllers() {
    return List.copyOf(controllers.values());
  }

  /** Whether {@code /<controller>/<hook>} names a hook that is served. */
  public boolean serves(String controllerName, String hookPath) {
    Optional<Hook> hook = Hook.fromPath(hookPath);
    return hook.isPresent() && controller(controllerName).map(c -> c.serves(hook.get())).orElse(false);
  }

  /** The 404 for {@code /<controller>/<hook>} that is not served, saying what is. */
  public HookError notServed(String controllerName, String hookPath) {
    Controller controller = controllers.get(controllerName);
    if (controller == null) {
      return new HookError(ErrorCode.NOT_FOUND, "no controller named '" + controllerName + "'; served: "
          + String.join(", ", controllers.keySet()));
    }
    return new HookError(ErrorCode.NOT_FOUND, "controller '" + controllerName + "' has no '" + hookPath
        + "' hook; it serves: " + String.join(", ", controller.hooks().stream().map(Hook::path).toList()));
  }

  private interface RequestSource {
    ObjectNode read(Projection unread) throws IOException;
  }

  private Answer dispatch(String controllerName, String hookPath, RequestSource body) {
    boolean served = serves(controllerName, hookPath);
    LOG.atDebug().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
        .log(served ? "routed to the hook" : "no such hook: 404");
    if (!served) {
      return Answer.failed(notServed(controllerName, hookPath), null);
    }
    Controller controller = controllers.get(controllerName);
    Hook hook = Hook.fromPath(hookPath).orElseThrow();
    ObjectNode request;
    try {
      request = body.read(parseWhole ? Projection.NONE : unread.get(controllerName));
    } catch (IOException | RuntimeException e) {
      return Answer.failed(HookError.from(e), null);
    }
    try {
      ObjectNames.check(request); // for every controller: a name the API server refuses is never echoed
    } catch (InvalidRequestException e) {
      return Answer.failed(HookError.from(e), request);
    }
    try {
      return Answer.ok(AnswerSize.limitedTo(maxResponseBytes, () -> controller.handle(hook, request)), request);
    } catch (RuntimeException | StackOverflowError e) {
      HookError error = HookError.from(e);
      if (error.code() == ErrorCode.INTERNAL_ERROR) {
        logFault(controllerName, hookPath, request, e);
        error = new HookError(ErrorCode.INTERNAL_ERROR, "the " + controllerName + " " + hookPath
            + " hook failed; the server log has the details");
      }
      return Answer.failed(error, request);
    }
  }

  /** Logs a fault once, with what it was about; Secret values of the request are masked in the text. */
  private static void logFault(String controller, String hook, ObjectNode request, Throwable e) {
    Set<String> secrets = Redaction.secretValues(request);
    StringWriter stack = new StringWriter();
    e.printStackTrace(new PrintWriter(stack));
    LOG.atError()
        .addKeyValue("controller", controller)
        .addKeyValue("hook", hook)
        .addKeyValue("parent", parentOf(request))
        .addKeyValue("error", Redaction.mask(e.toString(), secrets))
        .addKeyValue("stack", Redaction.mask(stack.toString(), secrets))
        .log("hook failed");
  }

  /** Parses the body into a JSON object; what is wrong with it is a {@link HookError} (or an exception it maps). */
  static ObjectNode readObject(byte[] body) {
    return readObject(body, Projection.NONE);
  }

  static ObjectNode readObject(byte[] body, Projection unread) {
    try {
      return object(JsonTrees.parse(body, unread));
    } catch (IOException e) {
      throw HookError.from(e);
    }
  }

  private static ObjectNode object(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      throw new HookError(ErrorCode.BAD_REQUEST, "empty request body; a hook request is a JSON object");
    }
    if (!node.isObject()) {
      throw new HookError(ErrorCode.BAD_REQUEST,
          "request body must be a JSON object, not " + node.getNodeType().name().toLowerCase());
    }
    return (ObjectNode) node;
  }

  /** kind namespace/name of the object a request is about, for the log. */
  static String parentOf(ObjectNode request) {
    JsonNode parent = request.has("parent") ? request.get("parent") : request.path("object");
    String namespace = parent.path("metadata").path("namespace").asText("");
    return parent.path("kind").asText("?") + " " + (namespace.isEmpty() ? "" : namespace + "/")
        + parent.path("metadata").path("name").asText("?");
  }
}
