package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Selects related objects by the rules of a customize answer (contract section 7.2). */
final class Related {
  private Related() {}

  /**
   * The related objects of a parent.
   *
   * @param rules {@code relatedResources} of the customize answer
   * @param customizeVersion the customize hook's version: it decides which objects are selected (the sync
   *     hook's version decides later how they are keyed and whether v1 drops some)
   * @throws SyncFailure for a rule Metacontroller refuses
   */
  static ObjectGroups select(Cluster cluster, ObjectNode parent, boolean parentNamespaced, JsonNode rules,
      HookVersion customizeVersion) {
    ObjectGroups related = new ObjectGroups();
    String parentNamespace = parentNamespaced ? Meta.namespace(parent) : "";
    boolean v1Namespaced = customizeVersion == HookVersion.V1 && parentNamespaced;
    for (JsonNode rule : rules) {
      String apiVersion = rule.path("apiVersion").asText("");
      String resource = rule.path("resource").asText("");
      ApiResources.Type type;
      try {
        type = cluster.resources().requireResource(apiVersion, resource);
      } catch (IllegalArgumentException e) {
        throw new SyncFailure(e.getMessage());
      }
      JsonNode labelSelector = present(rule.get("labelSelector"));
      JsonNode namespaceSelector = present(rule.get("namespaceSelector"));
      String namespace = rule.path("namespace").asText("");
      List<String> names = new ArrayList<>();
      rule.path("names").forEach(n -> names.add(n.asText()));
      if (!names.isEmpty() && (labelSelector != null || namespaceSelector != null)) {
        throw new SyncFailure("related rule cannot have both names and a selector: " + rule);
      }
      if (!namespace.isEmpty() && namespaceSelector != null) {
        throw new SyncFailure("related rule cannot have both namespace and namespaceSelector: " + rule);
      }
      List<ObjectNode> selected = new ArrayList<>();
      if (namespaceSelector != null) {
        if (v1Namespaced) {
          throw new SyncFailure("namespaceSelector in a related rule needs a v2 customize hook for a namespaced "
              + "parent: " + rule);
        }
        Set<String> namespaces = new HashSet<>();
        for (ObjectNode ns : cluster.list("v1", "Namespace")) {
          if (Selectors.matches(namespaceSelector, Meta.labels(ns))) {
            namespaces.add(Meta.name(ns));
          }
        }
        for (ObjectNode object : cluster.list(apiVersion, type.kind())) {
          if (namespaces.contains(Meta.namespace(object)) && Selectors.matches(labelSelector, Meta.labels(object))) {
            selected.add(object);
          }
        }
      } else if (labelSelector != null && !namespace.isEmpty()) {
        requireOwnNamespace(v1Namespaced, namespace, parentNamespace);
        for (ObjectNode object : cluster.list(apiVersion, type.kind(), namespace)) {
          if (Selectors.matches(labelSelector, Meta.labels(object))) {
            selected.add(object);
          }
        }
      } else if (!namespace.isEmpty() || !names.isEmpty()) {
        requireOwnNamespace(v1Namespaced, namespace, parentNamespace);
        List<ObjectNode> candidates = namespace.isEmpty() ? cluster.list(apiVersion, type.kind())
            : cluster.list(apiVersion, type.kind(), namespace);
        for (ObjectNode object : candidates) {
          if (names.isEmpty() || names.contains(Meta.name(object))) {
            selected.add(object);
          }
        }
      } else {
        List<ObjectNode> candidates = v1Namespaced && type.namespaced()
            ? cluster.list(apiVersion, type.kind(), parentNamespace) : cluster.list(apiVersion, type.kind());
        for (ObjectNode object : candidates) {
          if (Selectors.matches(labelSelector, Meta.labels(object))) {
            selected.add(object);
          }
        }
      }
      related.init(apiVersion, type.kind());
      selected.forEach(object -> related.put(apiVersion, object));
    }
    return related;
  }

  private static void requireOwnNamespace(boolean v1Namespaced, String namespace, String parentNamespace) {
    if (v1Namespaced && !namespace.isEmpty() && !namespace.equals(parentNamespace)) {
      throw new SyncFailure("requested related object namespace " + namespace + " differs from parent object "
          + "namespace " + parentNamespace);
    }
  }

  private static JsonNode present(JsonNode node) {
    return node == null || node.isNull() ? null : node;
  }
}
