package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The object maps of a hook request ({@code children}, {@code attachments}, {@code related}) as a test edits
 * them: entries re-keyed for a hook version, shuffled, added. Keys follow the contract (section 4), written
 * here independently of the parser so that a test can check the parser against it.
 */
public final class RequestMaps {
  public static final List<String> FIELDS = List.of("children", "attachments", "related");

  private RequestMaps() {}

  /** One observed object: its group, wire key and object, with the namespace the key and metadata give. */
  public record Entry(String field, String group, String key, String namespace, ObjectNode object) {
    public String name() {
      return object.path("metadata").path("name").asText();
    }
  }

  /** "v1" or "v2": the version of the hook that the request was sent for (finalizing picks the hook). */
  public static String version(ObjectNode request, String hook) {
    boolean finalizing = request.path("finalizing").asBoolean(hook.equals("finalize"));
    JsonNode version =
        request
            .path("controller")
            .path("spec")
            .path("hooks")
            .path(finalizing ? "finalize" : "sync")
            .path("version");
    return version.isTextual() && version.asText().equals("v2") ? "v2" : "v1";
  }

  /** The parent's (or decorator target's) namespace, "" when cluster-scoped. */
  public static String parentNamespace(ObjectNode request) {
    JsonNode parent = request.has("parent") ? request.get("parent") : request.path("object");
    return parent.path("metadata").path("namespace").asText("");
  }

  /** The key Metacontroller uses for an object of this namespace and name. */
  public static String key(String version, String parentNamespace, String namespace, String name) {
    if (namespace.isEmpty()
        || (version.equals("v1")
            && !parentNamespace.isEmpty()
            && namespace.equals(parentNamespace))) {
      return name;
    }
    return namespace + "/" + name;
  }

  /** Every entry of every object map, in request order. */
  public static List<Entry> entries(ObjectNode request, String hook) {
    String version = version(request, hook);
    String parentNamespace = parentNamespace(request);
    List<Entry> entries = new ArrayList<>();
    for (String field : FIELDS) {
      JsonNode map = request.get(field);
      if (map == null || !map.isObject()) {
        continue;
      }
      for (Map.Entry<String, JsonNode> group : map.properties()) {
        if (!group.getValue().isObject()) {
          continue;
        }
        for (Map.Entry<String, JsonNode> item : group.getValue().properties()) {
          if (item.getValue().isObject()) {
            ObjectNode object = (ObjectNode) item.getValue();
            entries.add(
                new Entry(
                    field,
                    group.getKey(),
                    item.getKey(),
                    namespace(item.getKey(), object, version, parentNamespace),
                    object));
          }
        }
      }
    }
    return entries;
  }

  private static String namespace(
      String key, ObjectNode object, String version, String parentNamespace) {
    JsonNode declared = object.path("metadata").path("namespace");
    if (declared.isTextual()) {
      return declared.asText();
    }
    int slash = key.indexOf('/');
    if (slash >= 0) {
      return key.substring(0, slash);
    }
    return version.equals("v1") ? parentNamespace : "";
  }

  /** The object at {@code request[field][group]}, created empty if missing. */
  public static ObjectNode group(ObjectNode request, String field, String group) {
    return request.withObjectProperty(field).withObjectProperty(group);
  }

  /**
   * Rewrites the request for another hook version: the version in {@code controller.spec.hooks} (sync and
   * finalize alike) and every key; v1 does not send a namespaced parent objects of other namespaces.
   */
  public static void switchVersion(ObjectNode request, String hook, String version) {
    List<Entry> entries = entries(request, hook);
    String parentNamespace = parentNamespace(request);
    ObjectNode hooks =
        request
            .withObjectProperty("controller")
            .withObjectProperty("spec")
            .withObjectProperty("hooks");
    for (String name : List.of("sync", "finalize")) {
      hooks.withObjectProperty(name).put("version", version);
    }
    for (String field : FIELDS) {
      if (request.get(field) instanceof ObjectNode map) {
        map.properties()
            .forEach(
                group -> {
                  if (group.getValue() instanceof ObjectNode inner) {
                    inner.removeAll();
                  }
                });
      }
    }
    for (Entry entry : entries) {
      if (version.equals("v1")
          && !parentNamespace.isEmpty()
          && !entry.namespace().equals(parentNamespace)) {
        continue;
      }
      group(request, entry.field(), entry.group())
          .set(key(version, parentNamespace, entry.namespace(), entry.name()), entry.object());
    }
  }

  /** Reorders the groups of each object map and the entries of each group. */
  public static void shuffle(ObjectNode request, Random random) {
    for (String field : FIELDS) {
      if (request.get(field) instanceof ObjectNode map) {
        for (JsonNode group : shuffled(map, random).values()) {
          if (group instanceof ObjectNode inner) {
            shuffled(inner, random);
          }
        }
      }
    }
  }

  /** Puts the fields of {@code object} in random order, in place; returns them in that order. */
  private static Map<String, JsonNode> shuffled(ObjectNode object, Random random) {
    List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
    object.properties().forEach(field -> fields.add(Map.entry(field.getKey(), field.getValue())));
    Collections.shuffle(fields, random);
    object.removeAll();
    Map<String, JsonNode> order = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : fields) {
      object.set(field.getKey(), field.getValue());
      order.put(field.getKey(), field.getValue());
    }
    return order;
  }
}
