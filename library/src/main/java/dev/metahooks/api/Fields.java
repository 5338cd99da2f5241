package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;

/** Shape checks on request fields; each failure names the field so the 422 answer says what to fix. */
final class Fields {
  private Fields() {}

  static ObjectNode requireObject(JsonNode container, String name, String path) {
    JsonNode value = container.get(name);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path, "is required");
    }
    return asObject(value, path);
  }

  /** The object at {@code name}, or an empty object when absent or null. */
  static ObjectNode optionalObject(JsonNode container, String name, String path) {
    JsonNode value = container.get(name);
    if (value == null || value.isNull()) {
      return JsonTrees.MAPPER.createObjectNode();
    }
    return asObject(value, path);
  }

  static ObjectNode asObject(JsonNode value, String path) {
    if (!value.isObject()) {
      throw new InvalidRequestException(path, "must be an object, not " + describe(value));
    }
    return (ObjectNode) value;
  }

  static boolean optionalBoolean(JsonNode container, String name, String path, boolean fallback) {
    JsonNode value = container.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isBoolean()) {
      throw new InvalidRequestException(path, "must be a boolean, not " + describe(value));
    }
    return value.booleanValue();
  }

  /** Whether {@link #requireIdentity} would accept {@code value} as an object; no message is built. */
  static boolean hasIdentity(JsonNode value) {
    if (!value.isObject()) {
      return false;
    }
    JsonNode metadata = value.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      return false;
    }
    JsonNode name = metadata.get("name");
    if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
      return false;
    }
    JsonNode namespace = metadata.get("namespace");
    return namespace == null || namespace.isNull() || namespace.isTextual();
  }

  /** Checks {@code metadata.name} (a non-empty string) and {@code metadata.namespace} (a string if present). */
  static void requireIdentity(ObjectNode object, String path) {
    ObjectNode metadata = requireObject(object, "metadata", path + ".metadata");
    JsonNode name = metadata.get("name");
    if (name == null || name.isNull()) {
      throw new InvalidRequestException(path + ".metadata.name", "is required");
    }
    if (!name.isTextual() || name.asText().isEmpty()) {
      throw new InvalidRequestException(path + ".metadata.name", "must be a non-empty string");
    }
    JsonNode namespace = metadata.get("namespace");
    if (namespace != null && !namespace.isNull() && !namespace.isTextual()) {
      throw new InvalidRequestException(path + ".metadata.namespace", "must be a string");
    }
  }

  static String describe(JsonNode value) {
    JsonNodeType type = value.getNodeType();
    return switch (type) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> type.name().toLowerCase();
    };
  }
}
