package dev.metahooks.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
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
 * <p>Every failure becomes a JSON error body ({@code {"error", "message"}}): 4xx for what the caller can
 * fix, 500 for a fault in a controller. A 500 makes Metacontroller retry and change nothing, which is the
 * safe answer; a 200 with a partial child list would make it delete children.
 */
public final class HookDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(HookDispatcher.class);

  /**
   * What the dispatcher answered: an HTTP status, a JSON-serialisable body, a metrics outcome, and what the
   * request was about (for the log line); {@code request} is null when the body could not be read.
   */
  public record Answer(int status, Object body, String outcome, ObjectNode request) {
    public boolean ok() {
      return status == 200;
    }

    public Answer about(ObjectNode parsed) {
      return new Answer(status, body, outcome, parsed);
    }
  }

  /**
   * A hook call answered as bytes: the status, the JSON body, on a 200 its ETag (a hash of the body), the
   * metrics outcome, what the access log says about it, and whether it came from the response cache.
   */
  public record Reply(int status, byte[] body, String etag, String outcome, CallSummary summary, boolean cached) {}

  /** Built once: a writer holds the configuration lookups a mapper would redo on every call. */
  private static final ObjectWriter WRITER = Json.MAPPER.writer();

  private final Map<String, Controller> controllers;
  private final ResponseCache cache;
  private final long maxResponseBytes;
  private final AnswerWriter answers;

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
    }
    this.controllers = byName;
  }

  /**
   * Answers a whole request body as bytes, the way the HTTP server serves it: from the response cache when these
   * bytes were answered before, else by running the hook; a 200 carries the ETag of its body.
   */
  public Reply reply(String controllerName, String hookPath, byte[] body) {
    ResponseCache.Key key = cache.enabled() && serves(controllerName, hookPath)
        ? new ResponseCache.Key(controllerName, hookPath, Digests.sha256(body)) : null;
    if (key != null) {
      ResponseCache.Entry hit = cache.get(key);
      LOG.atDebug().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
          .addKeyValue("hit", hit != null).log(hit != null ? "answered from the response cache"
              : "not in the response cache: the hook runs");
      if (hit != null) {
        return new Reply(200, hit.body(), hit.etag(), "ok", hit.summary(), true);
      }
    }
    Answer answer = dispatch(controllerName, hookPath, body);
    byte[] bytes;
    try {
      bytes = answers.write(answer.body());
    } catch (AnswerWriter.TooLargeException e) {
      answer = error(422, "invalid_request", e.getMessage(), e.field()).about(answer.request());
      bytes = write(answer.body(), controllerName, hookPath);
    } catch (IOException e) { // never a 200 with a body Metacontroller cannot read
      LOG.atError().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
          .addKeyValue("error", e.toString()).log("response cannot be written as JSON");
      answer = error(500, "internal_error", "the response could not be serialised", null).about(answer.request());
      bytes = write(answer.body(), controllerName, hookPath);
    }
    CallSummary summary = CallSummary.of(hookPath, answer.request(), answer.body());
    if (!answer.ok()) {
      return new Reply(answer.status(), bytes, null, answer.outcome(), summary, false);
    }
    String etag = Digests.sha256(bytes).etag();
    if (key != null) {
      cache.put(key, new ResponseCache.Entry(bytes, etag, summary));
    }
    return new Reply(200, bytes, etag, answer.outcome(), summary, false);
  }

  /**
   * Builds what the first call would otherwise build on its way: Jackson's serializers of the three answer types,
   * the parser, the digest. Run on a thread of its own while Jetty starts, it takes that time off the first sync.
   */
  static void warmUp() {
    write(CompositeResponse.of(Json.object().put("ready", true), List.of(Json.object().put("kind", "Pod")))
        .withFinalized(false).withResyncAfterSeconds(1), "", "");
    write(new DecoratorResponse(Map.of("k", "v"), null, Json.object(), List.of(Json.object()), 1.0, false), "", "");
    write(CustomizeResponse.of(CustomizeResponse.RelatedResourceRule.of("v1", "pods").inNamespace("default")), "", "");
    write(error(422, "invalid_request", "warm-up", "field").body(), "", "");
    readObject("{\"parent\": {\"metadata\": {\"name\": \"x\"}}, \"children\": {}}".getBytes(StandardCharsets.UTF_8));
    Digests.sha256(new byte[1]);
  }

  /** Runs the hook on a whole request body held in memory (parsing from an array is the fastest Jackson path). */
  public Answer dispatch(String controllerName, String hookPath, byte[] body) {
    return dispatch(controllerName, hookPath, () -> readObject(body));
  }

  /** Bytes the response cache holds. */
  public long cacheBytes() {
    return cache.bytes();
  }

  /** Calls answered from the response cache. */
  public long cacheHits() {
    return cache.hits();
  }

  /** Calls looked up in the response cache and not found there. */
  public long cacheMisses() {
    return cache.misses();
  }

  /** The body as JSON bytes; null (and logged) when it cannot be written. */
  static byte[] write(Object body, String controller, String hook) {
    try {
      return WRITER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      LOG.atError().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("error", e.getOriginalMessage()).log("response cannot be written as JSON");
      return null;
    }
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

  public Answer dispatch(String controllerName, String hookPath, InputStream body) {
    return dispatch(controllerName, hookPath, () -> readObject(body));
  }

  private interface RequestSource {
    ObjectNode read();
  }

  private Answer dispatch(String controllerName, String hookPath, RequestSource body) {
    Controller controller = controllers.get(controllerName);
    Optional<Hook> hook = controller == null ? Optional.empty() : Hook.fromPath(hookPath).filter(controller::serves);
    LOG.atDebug().addKeyValue("controller", controllerName).addKeyValue("hook", hookPath)
        .log(hook.isPresent() ? "routed to the hook" : "no such hook: 404");
    if (controller == null) {
      return error(404, "not_found", "no controller named '" + controllerName + "'; served: "
          + String.join(", ", controllers.keySet()), null);
    }
    if (hook.isEmpty()) {
      return error(404, "not_found", "controller '" + controllerName + "' has no '" + hookPath + "' hook; it serves: "
          + String.join(", ", controller.hooks().stream().map(Hook::path).toList()), null);
    }
    ObjectNode request;
    try {
      request = body.read();
    } catch (BodyTooLargeException e) {
      return error(413, "payload_too_large", e.getMessage(), null);
    } catch (BadJsonException e) {
      return error(400, "bad_request", e.getMessage(), null);
    }
    try {
      Object answer = AnswerSize.limitedTo(maxResponseBytes, () -> controller.handle(hook.get(), request));
      return new Answer(200, answer, "ok", request);
    } catch (InvalidRequestException e) {
      return error(422, "invalid_request", e.getMessage(), e.field()).about(request);
    } catch (RuntimeException | StackOverflowError e) {
      logFault(controllerName, hookPath, request, e);
      return error(500, "internal_error", "the " + controllerName + " " + hookPath
          + " hook failed; the server log has the details", null).about(request);
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

  /** Parses the body into a JSON object, with messages that say what is wrong and where. */
  static ObjectNode readObject(InputStream body) {
    return readObject(() -> Json.parse(body));
  }

  static ObjectNode readObject(byte[] body) {
    return readObject(() -> Json.parse(body));
  }

  private interface TreeRead {
    JsonNode read() throws IOException;
  }

  private static ObjectNode readObject(TreeRead read) {
    JsonNode node;
    try {
      node = read.read();
    } catch (BodyTooLargeException e) {
      throw e;
    } catch (Json.TreeTooLargeException e) {
      throw new BodyTooLargeException(e.getOriginalMessage());
    } catch (StreamConstraintsException e) {
      throw new BadJsonException("request exceeds a parser limit: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new BadJsonException("malformed JSON" + where(e.getLocation()) + ": " + firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      if (e.getCause() instanceof BodyTooLargeException tooLarge) {
        throw tooLarge;
      }
      throw new BadJsonException("could not read the request body: " + e.getMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw new BadJsonException("empty request body; a hook request is a JSON object");
    }
    if (!node.isObject()) {
      throw new BadJsonException("request body must be a JSON object, not " + node.getNodeType().name().toLowerCase());
    }
    return (ObjectNode) node;
  }

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  private static String firstLine(String message) {
    int newline = message == null ? -1 : message.indexOf('\n');
    return newline < 0 ? String.valueOf(message) : message.substring(0, newline);
  }

  /** kind namespace/name of the object a request is about, for the log. */
  static String parentOf(ObjectNode request) {
    JsonNode parent = request.has("parent") ? request.get("parent") : request.path("object");
    String namespace = parent.path("metadata").path("namespace").asText("");
    return parent.path("kind").asText("?") + " " + (namespace.isEmpty() ? "" : namespace + "/")
        + parent.path("metadata").path("name").asText("?");
  }

  static Answer error(int status, String code, String message, String field) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("error", code);
    body.put("message", message);
    if (field != null) {
      body.put("field", field);
    }
    return new Answer(status, body, code, null);
  }

  /** The body is not a JSON object; the message says why and where. */
  static final class BadJsonException extends RuntimeException {
    BadJsonException(String message) {
      super(message);
    }
  }
}
