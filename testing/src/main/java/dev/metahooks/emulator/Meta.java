package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads and edits the metadata of an object tree. */
final class Meta {
  private Meta() {}

  static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      return object.putObject("metadata");
    }
    return (ObjectNode) metadata;
  }

  static String apiVersion(JsonNode object) {
    return object.path("apiVersion").asText();
  }

  static String kind(JsonNode object) {
    return object.path("kind").asText();
  }

  static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  static String namespace(JsonNode object) {
    return object.path("metadata").path("namespace").asText("");
  }

  static String uid(JsonNode object) {
    return object.path("metadata").path("uid").asText();
  }

  static String resourceVersion(JsonNode object) {
    return object.path("metadata").path("resourceVersion").asText();
  }

  static long generation(JsonNode object) {
    return object.path("metadata").path("generation").asLong(0);
  }

  static boolean deleting(JsonNode object) {
    JsonNode timestamp = object.path("metadata").path("deletionTimestamp");
    return !timestamp.isMissingNode() && !timestamp.isNull();
  }

  static Map<String, String> labels(JsonNode object) {
    return Trees.stringMap(object.path("metadata").get("labels"));
  }

  static Map<String, String> annotations(JsonNode object) {
    return Trees.stringMap(object.path("metadata").get("annotations"));
  }

  static List<String> finalizers(JsonNode object) {
    List<String> finalizers = new ArrayList<>();
    object.path("metadata").path("finalizers").forEach(f -> finalizers.add(f.asText()));
    return finalizers;
  }

  static boolean hasFinalizer(JsonNode object, String finalizer) {
    return finalizers(object).contains(finalizer);
  }

  static void setFinalizers(ObjectNode object, List<String> finalizers) {
    if (finalizers.isEmpty()) {
      metadata(object).remove("finalizers");
    } else {
      ArrayNode list = metadata(object).putArray("finalizers");
      finalizers.forEach(list::add);
    }
  }

  /** The ownerReference with {@code controller: true}, or null. */
  static JsonNode controllerRef(JsonNode object) {
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      if (ref.path("controller").asBoolean(false)) {
        return ref;
      }
    }
    return null;
  }

  /** The controller ownerReference Metacontroller puts on what it creates or adopts. */
  static ObjectNode controllerRefTo(JsonNode owner) {
    ObjectNode ref = Trees.object();
    ref.put("apiVersion", apiVersion(owner));
    ref.put("kind", kind(owner));
    ref.put("name", name(owner));
    ref.put("uid", uid(owner));
    ref.put("controller", true);
    ref.put("blockOwnerDeletion", true);
    return ref;
  }

  /** {@code Kind namespace/name}, or {@code Kind name} when cluster-scoped. */
  static String describe(String kind, String namespace, String name) {
    return kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
  }

  static String describe(JsonNode object) {
    return describe(kind(object), namespace(object), name(object));
  }
}
