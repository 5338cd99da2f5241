package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookResponse;

/**
 * What the access log says about a call, taken from the request and the answer while they are at hand, so that
 * an answer served from the cache is logged like a computed one. {@code kind} is null when the request could not
 * be read; {@code children} is -1 when the answer has no children (an error).
 */
public record CallSummary(
    String hookVersion, String kind, String namespace, String name, long generation, int children) {
  static final CallSummary UNREAD = new CallSummary(null, null, null, null, 0, -1);

  static CallSummary of(String hook, ObjectNode request, HookResponse answer) {
    int children = answer == null ? -1 : answer.objectCount();
    if (request == null) {
      return new CallSummary(null, null, null, null, 0, children);
    }
    JsonNode parent = request.has("parent") ? request.get("parent") : request.path("object");
    JsonNode metadata = parent.path("metadata");
    String version =
        request
            .path("controller")
            .path("spec")
            .path("hooks")
            .path(request.path("finalizing").asBoolean(false) ? "finalize" : hook)
            .path("version")
            .asText("");
    return new CallSummary(
        version.isEmpty() ? "v1" : version,
        parent.path("kind").asText(""),
        metadata.path("namespace").asText(""),
        metadata.path("name").asText(""),
        metadata.path("generation").asLong(0),
        children);
  }

  public boolean requestRead() {
    return kind != null;
  }
}
