package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.HookResponse;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a routed hook on a request body: the parse, then the names check and the controller within the answer
 * limit. Each step throws; whatever it throws goes through one funnel per step, which makes it a {@link HookError} (4xx for
 * what the caller can fix, 500 for a fault in a controller, logged here once with what the call was about). A 500
 * makes Metacontroller retry and change nothing, which is the safe answer; a 200 with a partial child list would
 * make it delete children.
 */
public final class HookRunner {
  private static final Logger LOG = LoggerFactory.getLogger(HookRunner.class);

  private final long maxResponseBytes;

  /** Hooks that amplify refuse answers estimated larger than {@code maxResponseBytes} ({@link AnswerSize}). */
  HookRunner(long maxResponseBytes) {
    this.maxResponseBytes = maxResponseBytes;
  }

  /**
   * The request as a JSON object, parsed with what the route leaves unread.
   *
   * @throws HookError what is wrong with the body
   */
  ObjectNode read(Route route, byte[] body) {
    try {
      return readObject(body, route);
    } catch (IOException | RuntimeException e) {
      throw HookError.from(e);
    }
  }

  /**
   * The controller's answer to {@code request}, once its names are checked: a name the API server refuses is never
   * echoed, for any controller.
   *
   * @throws HookError the request refused, or a fault of the controller (logged)
   */
  HookResponse run(Route route, ObjectNode request) {
    try {
      ObjectNames.check(request);
      return AnswerSize.limitedTo(
          maxResponseBytes, () -> route.controller().handle(route.hook(), request));
    } catch (RuntimeException | StackOverflowError e) {
      HookError error = HookError.from(e);
      if (error.code() != ErrorCode.INTERNAL_ERROR) {
        throw error;
      }
      logFault(route, request, e);
      throw new HookError(
          ErrorCode.INTERNAL_ERROR,
          "the "
              + route.controllerName()
              + " "
              + route.hookPath()
              + " hook failed; the server log has the details");
    }
  }

  private static ObjectNode readObject(byte[] body, Route route) throws IOException {
    JsonNode node = JsonTrees.parse(body, route.unread());
    if (node == null || node.isMissingNode()) {
      throw new HookError(
          ErrorCode.BAD_REQUEST, "empty request body; a hook request is a JSON object");
    }
    if (!node.isObject()) {
      throw new HookError(
          ErrorCode.BAD_REQUEST,
          "request body must be a JSON object, not " + node.getNodeType().name().toLowerCase());
    }
    return (ObjectNode) node;
  }

  /** Logs a fault once, with what it was about; Secret values of the request are masked in the text. */
  private static void logFault(Route route, ObjectNode request, Throwable e) {
    Set<String> secrets = Redaction.secretValues(request);
    StringWriter stack = new StringWriter();
    e.printStackTrace(new PrintWriter(stack));
    LOG.atError()
        .addKeyValue("controller", route.controllerName())
        .addKeyValue("hook", route.hookPath())
        .addKeyValue("parent", parentOf(request))
        .addKeyValue("error", Redaction.mask(e.toString(), secrets))
        .addKeyValue("stack", Redaction.mask(stack.toString(), secrets))
        .log("hook failed");
  }

  /** kind namespace/name of the object a request is about, for the log. */
  static String parentOf(ObjectNode request) {
    JsonNode parent = request.has("parent") ? request.get("parent") : request.path("object");
    String namespace = parent.path("metadata").path("namespace").asText("");
    return parent.path("kind").asText("?")
        + " "
        + (namespace.isEmpty() ? "" : namespace + "/")
        + parent.path("metadata").path("name").asText("?");
  }
}
