package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.cli.diff.PathDiff.Change;
import dev.metahooks.json.JsonTrees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one hook call's new answer would change, compared with what was before: children created, deleted and
 * changed (by path), status fields, other answer fields (labels, finalized, resync...), or a refusal (a call the
 * old answer served and this build answers with an error: Metacontroller would stop syncing the parent).
 */
record ParentDiff(
    DiffCase call,
    List<JsonNode> created,
    List<JsonNode> deleted,
    Map<JsonNode, List<Change>> changed,
    Map<JsonNode, List<Change>> held,
    List<Change> status,
    List<Change> answer,
    String refusal) {
  private static final List<String> CHILD_LISTS = List.of("children", "attachments");

  /** Written by Metacontroller, not by the hook: never a difference of the answer. */
  private static final Set<String> METACONTROLLER_STATUS = Set.of("observedGeneration");

  private static final String LAST_APPLIED = "metacontroller.k8s.io/last-applied-configuration";

  boolean changes() {
    return refusal != null
        || !created.isEmpty()
        || !deleted.isEmpty()
        || !changed.isEmpty()
        || !status.isEmpty()
        || !answer.isEmpty();
  }

  /** Whether there is anything to print: changes, or changes Metacontroller would hold back (OnDelete). */
  boolean shows() {
    return changes() || !held.isEmpty();
  }

  static ParentDiff refused(DiffCase call, String why) {
    return new ParentDiff(
        call, List.of(), List.of(), Map.of(), Map.of(), List.of(), List.of(), why);
  }

  /** Compares the new answer (as JSON) with the case's {@code before}. */
  static ParentDiff of(DiffCase call, JsonNode after) {
    String namespace = call.parentNamespace();
    String listField =
        CHILD_LISTS.stream()
            .filter(f -> after.has(f) || call.before().has(f))
            .findFirst()
            .orElse("children");
    Map<String, JsonNode> before = byKey(call.before().path(listField), namespace);
    Map<String, JsonNode> desired = byKey(after.path(listField), namespace);
    List<JsonNode> created = new ArrayList<>();
    List<JsonNode> deleted = new ArrayList<>();
    Map<JsonNode, List<Change>> changed = new LinkedHashMap<>();
    Map<JsonNode, List<Change>> held = new LinkedHashMap<>();
    desired.forEach(
        (key, child) -> {
          JsonNode old = before.get(key);
          if (old == null) {
            created.add(child);
            return;
          }
          List<Change> paths =
              PathDiff.between(call.live() ? applied(old, child, call) : old, child);
          if (paths.isEmpty()) {
            return;
          }
          // Against the cluster, an OnDelete child keeps what it has until it is deleted and
          // created again
          (call.live() && call.updateStrategy(child).equals("OnDelete") ? held : changed)
              .put(child, paths);
        });
    before.forEach(
        (key, child) -> {
          if (!desired.containsKey(key)) {
            deleted.add(child);
          }
        });
    List<Change> status =
        PathDiff.between(
            withoutMetacontrollerFields(call.before().path("status")),
            withoutMetacontrollerFields(after.path("status")));
    List<Change> answer =
        call.live()
            ? List.of()
            : PathDiff.between(rest(call.before(), listField), rest(after, listField));
    return new ParentDiff(call, created, deleted, changed, held, status, answer, null);
  }

  /**
   * What Metacontroller compares a desired child with: the last answer it applied (its annotation) when there is
   * one, else the observed object cut down to the fields the answer sets.
   */
  private static JsonNode applied(JsonNode observed, JsonNode desired, DiffCase call) {
    String lastApplied =
        observed.path("metadata").path("annotations").path(LAST_APPLIED).textValue();
    if (lastApplied != null) {
      try {
        JsonNode parsed = JsonTrees.MAPPER.readTree(lastApplied);
        if (parsed != null && parsed.isObject()) {
          return withoutWhatMetacontrollerAdds(parsed, desired, call);
        }
      } catch (java.io.IOException e) {
        // not JSON: compare with the object as observed
      }
    }
    return PathDiff.restrictedTo(observed, desired);
  }

  /**
   * What Metacontroller adds to a child when it applies it is not the hook's: the namespace, owner references, and
   * the parent's selector labels ({@code controller-uid} where it generates the selector).
   */
  private static JsonNode withoutWhatMetacontrollerAdds(
      JsonNode lastApplied, JsonNode desired, DiffCase call) {
    ObjectNode copy = lastApplied.deepCopy();
    if (copy.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove("ownerReferences");
      if (!desired.path("metadata").has("namespace")
          && metadata.path("namespace").asText("").equals(call.parentNamespace())) {
        metadata.remove("namespace");
      }
      if (metadata.get("labels") instanceof ObjectNode labels) {
        JsonNode selector = call.parent().path("spec").path("selector").path("matchLabels");
        JsonNode wanted = desired.path("metadata").path("labels");
        List<String> added = new ArrayList<>();
        labels
            .fieldNames()
            .forEachRemaining(
                label -> {
                  if (!wanted.has(label)
                      && (label.equals("controller-uid") || selector.has(label))) {
                    added.add(label);
                  }
                });
        labels.remove(added);
      }
    }
    return copy;
  }

  private static JsonNode withoutMetacontrollerFields(JsonNode status) {
    if (!(status instanceof ObjectNode object)) {
      return status.isMissingNode() || status.isNull() ? Json.object() : status;
    }
    ObjectNode copy = object.deepCopy();
    copy.remove(METACONTROLLER_STATUS);
    return copy;
  }

  private static JsonNode rest(JsonNode answer, String listField) {
    ObjectNode copy = answer.isObject() ? ((ObjectNode) answer).deepCopy() : Json.object();
    copy.remove(List.of(listField, "status"));
    return copy;
  }

  private static Map<String, JsonNode> byKey(JsonNode children, String namespace) {
    Map<String, JsonNode> byKey = new LinkedHashMap<>();
    children.forEach(child -> byKey.put(Objects.key(child, namespace), child));
    return byKey;
  }
}
