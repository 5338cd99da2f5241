package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.time.Instant;
import java.util.Map;

/**
 * One hook call to compare: the request to run through this build's hooks, and what the answer is compared with,
 * shaped as an answer ({@code children} or {@code attachments}, {@code status}, ...).
 *
 * @param source where it came from (a file, or the parent of a live request), for the report
 * @param before what the answer is compared with; null for a hook request until {@link #againstObserved}
 * @param live whether {@code before} is what the cluster holds (observed children, the parent's status) rather than
 *     a recorded answer: then only children and status are compared, children as far as the answer sets them
 * @param answeredAt the clock the hooks see: a recording's time, so that its conditions' times compare
 * @param generated the secrets the recorded call generated, by purpose, given back to the hooks (none elsewhere)
 */
record DiffCase(
    String source,
    String controller,
    String hook,
    ObjectNode request,
    JsonNode before,
    boolean live,
    Instant answeredAt,
    Map<String, String> generated) {
  DiffCase(
      String source,
      String controller,
      String hook,
      ObjectNode request,
      JsonNode before,
      boolean live,
      Instant answeredAt) {
    this(source, controller, hook, request, before, live, answeredAt, Map.of());
  }

  /** The same call compared with what its request observed: its children (or attachments) and status. */
  DiffCase againstObserved() {
    String field = request.has("attachments") ? "attachments" : "children";
    ArrayNode observed = JsonTrees.MAPPER.createArrayNode();
    request.path(field).forEach(group -> group.forEach(observed::add));
    ObjectNode shaped = Json.object();
    shaped.set(field, observed);
    shaped.set(
        "status", parent().path("status").isObject() ? parent().get("status") : Json.object());
    return new DiffCase(source, controller, hook, request, shaped, true, answeredAt, generated);
  }

  /** The object the call is about: a composite's parent, a decorator's object. */
  JsonNode parent() {
    return request.has("parent") ? request.get("parent") : request.path("object");
  }

  /**
   * How Metacontroller updates an existing child of this kind: {@code controller.spec.childResources[].updateStrategy
   * .method}, matched by apiVersion and the kind's plural; OnDelete (its default) leaves existing children as they are.
   */
  String updateStrategy(JsonNode child) {
    String resource = child.path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "s";
    for (JsonNode declared : request.path("controller").path("spec").path("childResources")) {
      if (declared.path("apiVersion").asText().equals(child.path("apiVersion").asText())
          && declared.path("resource").asText().equals(resource)) {
        return declared.path("updateStrategy").path("method").asText("OnDelete");
      }
    }
    return "OnDelete";
  }

  String parentNamespace() {
    return parent().path("metadata").path("namespace").asText("");
  }

  /** {@code Kind namespace/name}, as the report names the parent. */
  String parentName() {
    return Objects.describe(parent(), "");
  }
}
