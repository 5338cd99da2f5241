package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Selects related objects by the rules of a customize answer (docs/metacontroller.md, section 7.2). */
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
  static ObjectGroups select(
      Cluster cluster,
      ObjectNode parent,
      boolean parentNamespaced,
      JsonNode rules,
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
        throw new SyncFailure(
            "related rule cannot have both namespace and namespaceSelector: " + rule);
      }
      List<ObjectNode> selected = new ArrayList<>();
      if (namespaceSelector != null) {
        if (v1Namespaced) {
          throw new SyncFailure(
              "namespaceSelector in a related rule needs a v2 customize hook for a namespaced "
                  + "parent: "
                  + rule);
        }
        Set<String> namespaces = new HashSet<>();
        for (ObjectNode ns : cluster.list("v1", "Namespace")) {
          if (Selectors.matches(namespaceSelector, Meta.labels(ns))) {
            namespaces.add(Meta.name(ns));
          }
        }
        for (ObjectNode object : cluster.list(apiVersion, type.kind())) {
          if (namespaces.contains(Meta.namespace(object))
              && Selectors.matches(labelSelector, Meta.labels(object))) {
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
        List<ObjectNode> candidates =
            namespace.isEmpty()
                ? cluster.list(apiVersion, type.kind())
                : cluster.list(apiVersion, type.kind(), namespace);
        for (ObjectNode object : candidates) {
          if (names.isEmpty() || names.contains(Meta.name(object))) {
            selected.add(object);
          }
        }
      } else {
        List<ObjectNode> candidates =
            v1Namespaced && type.namespaced()
                ? cluster.list(apiVersion, type.kind(), parentNamespace)
                : cluster.list(apiVersion, type.kind());
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

  /** Whether any of the rules {@link #selects} the object. */
  static boolean selectsAny(
      Cluster cluster,
      ObjectNode parent,
      boolean parentNamespaced,
      JsonNode rules,
      HookVersion customizeVersion,
      ObjectNode object) {
    for (JsonNode rule : rules) {
      if (selects(cluster, parent, parentNamespaced, rule, customizeVersion, object)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a rule of the parent's customize answer selects this object, as Metacontroller decides which parents
   * an event of a related object concerns ({@code matchesRelatedRule}, customize/manager.go:444-553). A rule
   * Metacontroller refuses selects nothing here (the sync reports it).
   */
  static boolean selects(
      Cluster cluster,
      ObjectNode parent,
      boolean parentNamespaced,
      JsonNode rule,
      HookVersion customizeVersion,
      ObjectNode object) {
    String apiVersion = rule.path("apiVersion").asText("");
    ApiResources.Type type =
        cluster.resources().findResource(apiVersion, rule.path("resource").asText("")).orElse(null);
    if (type == null
        || !type.kind().equals(Meta.kind(object))
        || !type.group().equals(ApiResources.group(Meta.apiVersion(object)))) {
      return false;
    }
    JsonNode labelSelector = present(rule.get("labelSelector"));
    JsonNode namespaceSelector = present(rule.get("namespaceSelector"));
    String namespace = rule.path("namespace").asText("");
    List<String> names = new ArrayList<>();
    rule.path("names").forEach(n -> names.add(n.asText()));
    if ((!names.isEmpty() && (labelSelector != null || namespaceSelector != null))
        || (!namespace.isEmpty() && namespaceSelector != null)) {
      return false;
    }
    boolean v1Namespaced = customizeVersion == HookVersion.V1 && parentNamespaced;
    boolean inParentNamespace =
        !type.namespaced() || Meta.namespace(object).equals(Meta.namespace(parent));
    if (namespaceSelector != null) {
      return !v1Namespaced
          && type.namespaced()
          && Selectors.matches(labelSelector, Meta.labels(object))
          && cluster
              .find("v1", "Namespace", Meta.namespace(object))
              .filter(ns -> Selectors.matches(namespaceSelector, Meta.labels(ns)))
              .isPresent();
    }
    if (labelSelector != null && !namespace.isEmpty()) {
      return (!v1Namespaced || inParentNamespace)
          && Selectors.matches(labelSelector, Meta.labels(object))
          && (!type.namespaced() || Meta.namespace(object).equals(namespace));
    }
    if (!namespace.isEmpty() || !names.isEmpty()) {
      if (v1Namespaced
          ? !inParentNamespace
          : type.namespaced()
              && !namespace.isEmpty()
              && !Meta.namespace(object).equals(namespace)) {
        return false;
      }
      return names.isEmpty() || names.contains(Meta.name(object));
    }
    return Selectors.matches(labelSelector, Meta.labels(object))
        && (!v1Namespaced || inParentNamespace);
  }

  private static void requireOwnNamespace(
      boolean v1Namespaced, String namespace, String parentNamespace) {
    if (v1Namespaced && !namespace.isEmpty() && !namespace.equals(parentNamespace)) {
      throw new SyncFailure(
          "requested related object namespace "
              + namespace
              + " differs from parent object "
              + "namespace "
              + parentNamespace);
    }
  }

  private static JsonNode present(JsonNode node) {
    return node == null || node.isNull() ? null : node;
  }
}
