package dev.metahooks.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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

  private final Map<String, Controller> controllers;

  public HookDispatcher(List<Controller> controllers) {
    Map<String, Controller> byName = new TreeMap<>();
    for (Controller controller : controllers) {
      if (byName.put(controller.name(), controller) != null) {
        throw new IllegalArgumentException("two controllers named " + controller.name());
      }
    }
    this.controllers = byName;
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
    Controller controller = controllers.get(controllerName);
    if (controller == null) {
      return error(404, "not_found", "no controller named '" + controllerName + "'; served: "
          + String.join(", ", controllers.keySet()), null);
    }
    Optional<Hook> hook = Hook.fromPath(hookPath).filter(controller::serves);
    if (hook.isEmpty()) {
      return error(404, "not_found", "controller '" + controllerName + "' has no '" + hookPath + "' hook; it serves: "
          + String.join(", ", controller.hooks().stream().map(Hook::path).toList()), null);
    }
    ObjectNode request;
    try {
      request = readObject(body);
    } catch (BodyTooLargeException e) {
      return error(413, "payload_too_large", e.getMessage(), null);
    } catch (BadJsonException e) {
      return error(400, "bad_request", e.getMessage(), null);
    }
    try {
      return new Answer(200, controller.handle(hook.get(), request), "ok", request);
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
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(body);
    } catch (BodyTooLargeException e) {
      throw e;
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
