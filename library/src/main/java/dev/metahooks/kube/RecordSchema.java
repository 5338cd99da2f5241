package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.RecordType.Field;
import dev.metahooks.kube.RecordType.FieldType;

/**
 * The OpenAPI v3 schema of a record, as a CRD's {@code openAPIV3Schema} holds it (a structural schema: every
 * field typed): what {@link RecordReader} accepts, so the API server refuses what the hook would refuse. A
 * component that is not {@code Optional<...>} is {@code required} in a spec; a status, which only the hook writes,
 * requires nothing, so that a status written by an earlier version of the hook stays valid.
 */
final class RecordSchema {
  private RecordSchema() {}

  static ObjectNode of(Class<?> type, boolean withRequired) {
    ObjectNode schema = Json.object().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = Json.array();
    for (Field field : RecordType.of(type).fields()) {
      ObjectNode property = schema(field.type(), withRequired);
      field.description().ifPresent(description -> property.put("description", description));
      field.range().ifPresent(range -> {
        property.set("minimum", number(range.min()));
        property.set("maximum", number(range.max()));
      });
      properties.set(field.name(), property);
      if (withRequired && !field.optional()) {
        required.add(field.name());
      }
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    return schema;
  }

  static boolean hasRequired(Class<?> type) {
    return RecordType.of(type).fields().stream().anyMatch(field -> !field.optional());
  }

  /** An int node where the value fits one, as a parsed schema holds it, so that schemas compare equal. */
  private static JsonNode number(long value) {
    return value == (int) value ? JsonNodeFactory.instance.numberNode((int) value)
        : JsonNodeFactory.instance.numberNode(value);
  }

  private static ObjectNode schema(FieldType type, boolean withRequired) {
    return switch (type.kind()) {
      case STRING -> Json.object().put("type", "string");
      case BOOLEAN -> Json.object().put("type", "boolean");
      case INTEGER -> Json.object().put("type", "integer");
      case ENUM -> {
        ObjectNode schema = Json.object().put("type", "string");
        ArrayNode values = schema.putArray("enum");
        for (Object constant : type.type().getEnumConstants()) {
          values.add(((Enum<?>) constant).name());
        }
        yield schema;
      }
      case LIST -> {
        ObjectNode schema = Json.object().put("type", "array");
        schema.set("items", schema(type.element(), withRequired));
        yield schema;
      }
      case STRING_MAP -> {
        ObjectNode schema = Json.object().put("type", "object");
        schema.putObject("additionalProperties").put("type", "string");
        yield schema;
      }
      case RECORD -> of(type.type(), withRequired);
      case OBJECT -> Json.object().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    };
  }
}
