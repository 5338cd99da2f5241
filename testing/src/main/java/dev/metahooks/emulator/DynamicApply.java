package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Metacontroller's client-side apply (docs/metacontroller.md, section 8.3): a three-way merge of the observed object, the
 * last desired state it applied (kept in an annotation) and the new desired state.
 */
final class DynamicApply {
  static final String LAST_APPLIED = "metacontroller.k8s.io/last-applied-configuration";

  /** Lists whose items all share one of these keys are merged by it, in this order of preference. */
  private static final List<String> MERGE_KEYS =
      List.of("containerPort", "port", "mountPath", "name", "uid", "ip", "path");

  private static final List<String> SYSTEM_FIELDS =
      List.of(
          "selfLink",
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "managedFields");

  private DynamicApply() {}

  /** The object to create: the desired object with itself recorded as last applied. */
  static ObjectNode forCreate(ObjectNode desired) {
    ObjectNode object = Trees.copy(desired);
    String lastApplied = Trees.canonical(object);
    annotations(object).put(LAST_APPLIED, lastApplied);
    return object;
  }

  /**
   * The observed object with the desired changes applied: fields in {@code desired} win, fields the last
   * apply set but {@code desired} no longer has are removed, all other fields are kept; system metadata and
   * status stay as observed.
   *
   * @throws IllegalArgumentException when the last-applied annotation is not JSON
   */
  static ObjectNode update(ObjectNode observed, ObjectNode desired) {
    return update(observed, desired, Profile.V4_17_2);
  }

  /** {@link #update(ObjectNode, ObjectNode)} as the profile merges list maps (see {@link #mergeArray}). */
  static ObjectNode update(ObjectNode observed, ObjectNode desired, Profile profile) {
    JsonNode lastApplied = lastApplied(observed);
    ObjectNode update = Trees.copy(desired);
    JsonNode updateAnnotations = update.path("metadata").path("annotations");
    if (updateAnnotations.isObject()) {
      ((ObjectNode) updateAnnotations).remove(LAST_APPLIED);
    }
    ObjectNode merged =
        (ObjectNode) merge(Trees.copy(observed), lastApplied, update, profile.faithful());
    ObjectNode mergedMetadata = Meta.metadata(merged);
    JsonNode observedMetadata = observed.path("metadata");
    for (String field : SYSTEM_FIELDS) {
      if (observedMetadata.has(field)) {
        mergedMetadata.set(field, observedMetadata.get(field).deepCopy());
      } else {
        mergedMetadata.remove(field);
      }
    }
    if (observed.has("status")) {
      merged.set("status", observed.get("status").deepCopy());
    } else {
      merged.remove("status");
    }
    annotations(merged).put(LAST_APPLIED, Trees.canonical(update));
    return merged;
  }

  private static JsonNode lastApplied(ObjectNode observed) {
    String text = Meta.annotations(observed).getOrDefault(LAST_APPLIED, "");
    if (text.isEmpty()) {
      return null;
    }
    try {
      return Trees.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "can't unmarshal \"" + LAST_APPLIED + "\" annotation: " + e.getMessage());
    }
  }

  /** The three-way merge itself; {@code destination} is changed and returned (or replaced). */
  static JsonNode merge(JsonNode destination, JsonNode lastApplied, JsonNode desired, boolean go) {
    if (destination != null && destination.isObject()) {
      return mergeObject(
          (ObjectNode) destination, objectOrNull(lastApplied), objectOrNull(desired), go);
    }
    if (destination != null && destination.isArray()) {
      return mergeArray(
          (ArrayNode) destination, arrayOrNull(lastApplied), arrayOrNull(desired), go);
    }
    return desired == null ? NullNode.getInstance() : desired.deepCopy();
  }

  private static ObjectNode mergeObject(
      ObjectNode destination, ObjectNode lastApplied, ObjectNode desired, boolean go) {
    if (lastApplied != null) {
      for (String key : Trees.fieldNames(lastApplied)) {
        if (desired == null || !desired.has(key)) {
          destination.remove(key);
        }
      }
    }
    if (desired != null) {
      for (String key : Trees.fieldNames(desired)) {
        destination.set(
            key,
            merge(
                destination.get(key),
                lastApplied == null ? null : lastApplied.get(key),
                desired.get(key),
                go));
      }
    }
    return destination;
  }

  /**
   * A list map rebuilt from the merged map: first the observed items' keys in their order, then the desired
   * ones not yet added. Go ({@code go}, pkg/dynamic/apply/apply.go:160-167) does not remember the keys it took
   * in the first loop, so an observed list that repeats a merge key gets the map's one item for it once per
   * repetition: Service ports {@code [53/UDP dns, 53/TCP dns-tcp]} (merge key {@code port}) become
   * {@code [dns-tcp, dns-tcp]}. Intended: a list in which a merge key repeats is no list map, and is replaced
   * whole like any other list.
   */
  private static JsonNode mergeArray(
      ArrayNode destination, ArrayNode lastApplied, ArrayNode desired, boolean go) {
    String mergeKey = listMapKey(destination, lastApplied, desired);
    if (mergeKey != null && !go && (repeats(mergeKey, destination) || repeats(mergeKey, desired))) {
      mergeKey = null;
    }
    if (mergeKey == null) {
      return desired == null ? NullNode.getInstance() : desired.deepCopy();
    }
    ObjectNode destinationMap = listMap(mergeKey, destination);
    mergeObject(destinationMap, listMap(mergeKey, lastApplied), listMap(mergeKey, desired), go);
    ArrayNode merged = Trees.array();
    Set<String> added = new HashSet<>();
    for (JsonNode item : destination) {
      String key = mergeKeyValue(item.get(mergeKey));
      if (destinationMap.has(key) && (added.add(key) || go)) {
        merged.add(destinationMap.get(key).deepCopy());
      }
    }
    if (desired != null) {
      for (JsonNode item : desired) {
        String key = mergeKeyValue(item.get(mergeKey));
        if (added.add(key)) {
          merged.add(destinationMap.get(key));
        }
      }
    }
    return merged;
  }

  /** The conventional key that every item of every list has, or null when these are not list maps. */
  private static String listMapKey(ArrayNode... lists) {
    Set<String> common = null;
    for (ArrayNode list : lists) {
      if (list == null) {
        continue;
      }
      for (JsonNode item : list) {
        if (!item.isObject()) {
          return null;
        }
        if (common == null) {
          common = new LinkedHashSet<>(Trees.fieldNames(item));
        } else {
          common.retainAll(Trees.fieldNames(item));
        }
      }
    }
    if (common == null) {
      return null;
    }
    for (String key : MERGE_KEYS) {
      if (common.contains(key)) {
        return key;
      }
    }
    return null;
  }

  private static boolean repeats(String mergeKey, ArrayNode list) {
    Set<String> keys = new HashSet<>();
    if (list != null) {
      for (JsonNode item : list) {
        if (!keys.add(mergeKeyValue(item.get(mergeKey)))) {
          return true;
        }
      }
    }
    return false;
  }

  private static ObjectNode listMap(String mergeKey, ArrayNode list) {
    if (list == null) {
      return null;
    }
    ObjectNode map = Trees.object();
    list.forEach(item -> map.set(mergeKeyValue(item.get(mergeKey)), item.deepCopy()));
    return map;
  }

  private static String mergeKeyValue(JsonNode value) {
    return value == null ? "<nil>" : value.isTextual() ? value.asText() : value.toString();
  }

  private static ObjectNode objectOrNull(JsonNode node) {
    return node != null && node.isObject() ? (ObjectNode) node : null;
  }

  private static ArrayNode arrayOrNull(JsonNode node) {
    return node != null && node.isArray() ? (ArrayNode) node : null;
  }

  private static ObjectNode annotations(ObjectNode object) {
    ObjectNode metadata = Meta.metadata(object);
    JsonNode annotations = metadata.get("annotations");
    if (annotations == null || !annotations.isObject()) {
      return metadata.putObject("annotations");
    }
    return (ObjectNode) annotations;
  }
}
