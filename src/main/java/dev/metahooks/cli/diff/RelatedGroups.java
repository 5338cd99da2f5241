package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.api.Selectors;
import java.util.List;

/**
 * The {@code related} groups of a live request, as Metacontroller fills them from the customize hook's answer: one
 * group for every rule, empty when nothing matches, with the observed objects of the rule's kind that its namespace,
 * names and label selector select.
 */
final class RelatedGroups {
  private RelatedGroups() {}

  static ObjectNode of(JsonNode customizeAnswer, List<JsonNode> observed, ChildKinds kinds, boolean v2, String source) {
    ObjectNode groups = Json.object();
    for (JsonNode rule : customizeAnswer.path("relatedResources")) {
      String apiVersion = rule.path("apiVersion").asText();
      String resource = rule.path("resource").asText();
      String kind = kinds.kindOf(apiVersion, resource).orElseThrow(() -> new Cases.BadInput(source
          + ": the kind of the related resource " + apiVersion + " " + resource + " is not known here; add its CRD"
          + " to the observed files"));
      ObjectNode group = groups.putObject(ObjectMap.groupKey(apiVersion, kind));
      for (JsonNode object : observed) {
        if (object.path("apiVersion").asText().equals(apiVersion) && object.path("kind").asText().equals(kind)
            && selects(rule, object.path("metadata"))) {
          String namespace = object.at("/metadata/namespace").asText("");
          String name = object.at("/metadata/name").asText();
          group.set(v2 && !namespace.isEmpty() ? namespace + "/" + name : name, object);
        }
      }
    }
    return groups;
  }

  private static boolean selects(JsonNode rule, JsonNode metadata) {
    String namespace = rule.path("namespace").asText("");
    if (!namespace.isEmpty() && !namespace.equals("*") && !namespace.equals(metadata.path("namespace").asText())) {
      return false;
    }
    JsonNode names = rule.path("names");
    if (names.isArray() && !names.isEmpty()) {
      boolean listed = false;
      for (JsonNode name : names) {
        listed |= name.asText().equals(metadata.path("name").asText());
      }
      if (!listed) {
        return false;
      }
    }
    return Selectors.matches(rule.get("labelSelector"), "matchLabels", metadata.path("labels")) == Selectors.Match.YES;
  }
}
