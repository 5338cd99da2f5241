package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookVersion;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.api.Selectors;
import java.util.List;

/**
 * The {@code related} map Metacontroller would send with a live request: a group for every rule the customize hook
 * returned, empty or not, holding the given objects the rule selects (metacontroller v4.17.2,
 * pkg/controller/common/customize/manager.go:562-690: InitGroup for each rule, then the objects listed in the
 * rule's namespace, or, for hook version v1, the parent's, by label selector or by name). Selectors by
 * {@code matchExpressions} or {@code namespaceSelector} are refused as bad input: the diff would have to guess.
 */
final class RelatedObjects {
  private RelatedObjects() {}

  static ObjectNode of(
      JsonNode rules,
      JsonNode parent,
      List<JsonNode> objects,
      ChildKinds kinds,
      boolean v2,
      String where) {
    ObjectNode related = Json.object();
    String parentNamespace = parent.path("metadata").path("namespace").asText("");
    for (JsonNode rule : rules) {
      String apiVersion = rule.path("apiVersion").asText();
      String resource = rule.path("resource").asText();
      String kind =
          kinds
              .kindOf(apiVersion, resource)
              .orElseThrow(
                  () ->
                      new Cases.BadInput(
                          where
                              + ": the kind of the related resource "
                              + apiVersion
                              + " "
                              + resource
                              + " is not known here; add its CRD"
                              + " to the observed files"));
      if (rule.has("namespaceSelector") || rule.path("labelSelector").has("matchExpressions")) {
        throw new Cases.BadInput(
            where
                + ": related resource "
                + apiVersion
                + " "
                + resource
                + " selects by namespaceSelector or matchExpressions, which live requests do not model");
      }
      String namespace = rule.path("namespace").asText(!v2 ? parentNamespace : "");
      ObjectNode group = related.putObject(ObjectMap.groupKey(apiVersion, kind));
      for (JsonNode object : objects) {
        String objectNamespace = object.path("metadata").path("namespace").asText("");
        if (object.path("apiVersion").asText().equals(apiVersion)
            && object.path("kind").asText().equals(kind)
            && (namespace.isEmpty() || namespace.equals(objectNamespace))
            && selects(rule, object)) {
          String name = object.path("metadata").path("name").asText();
          group.set(
              ObjectMap.key(
                  v2 ? HookVersion.V2 : HookVersion.V1, parentNamespace, objectNamespace, name),
              object);
        }
      }
    }
    return related;
  }

  private static boolean selects(JsonNode rule, JsonNode object) {
    JsonNode names = rule.path("names");
    if (names.isArray() && !names.isEmpty()) {
      for (JsonNode name : names) {
        if (name.asText().equals(object.path("metadata").path("name").asText())) {
          return true;
        }
      }
      return false;
    }
    return Selectors.matches(
            rule.path("labelSelector"), "matchLabels", object.path("metadata").path("labels"))
        == Selectors.Match.YES;
  }
}
