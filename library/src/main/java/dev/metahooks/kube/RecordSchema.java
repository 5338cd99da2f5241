package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.RecordType.Field;
import dev.metahooks.kube.RecordType.FieldType;
import dev.metahooks.kube.RecordType.Kind;
import java.util.Optional;

/**
 * The OpenAPI v3 schema of a record, as a CRD's {@code openAPIV3Schema} holds it (a structural schema: every
 * field typed): what {@link RecordReader} accepts, so the API server refuses what the hook would refuse. A
 * component that is not {@code Optional<...>} is {@code required} in a spec, and a required string or a string of a
 * list has {@code minLength: 1}, as the reader wants them non-empty; {@link Range} gives {@code minimum} and
 * {@code maximum} (an {@code int} without one, its type's bounds), {@link Pattern} a {@code pattern}. A status,
 * which only the hook writes, requires nothing (no field, no length), so that a status written by an earlier
 * version of the hook stays valid.
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
      bounds(field, withRequired)
          .ifPresent(
              range -> {
                property.set("minimum", number(range[0]));
                property.set("maximum", number(range[1]));
              });
      field.pattern().ifPresent(pattern -> property.put("pattern", pattern.pattern()));
      if (withRequired && !field.optional() && field.type().kind() == Kind.STRING) {
        property.put(
            "minLength", 1); // FieldReader.requiredString: a required string is a non-empty one
      }
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

  /**
   * A field's {@link Range}; in a spec, an {@code int} without one has its type's bounds, which the reader holds it
   * to (a {@code long} is the API server's own integer, int64).
   */
  private static Optional<long[]> bounds(Field field, boolean inSpec) {
    if (field.range().isPresent()) {
      return Optional.of(new long[] {field.range().get().min(), field.range().get().max()});
    }
    FieldType type = field.type();
    return inSpec && type.kind() == Kind.INTEGER && type.min() != Long.MIN_VALUE
        ? Optional.of(new long[] {type.min(), type.max()})
        : Optional.empty();
  }

  static boolean hasRequired(Class<?> type) {
    return RecordType.of(type).fields().stream().anyMatch(field -> !field.optional());
  }

  /** An int node where the value fits one, as a parsed schema holds it, so that schemas compare equal. */
  private static JsonNode number(long value) {
    return value == (int) value
        ? JsonNodeFactory.instance.numberNode((int) value)
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
        ObjectNode items = schema(type.element(), withRequired);
        if (withRequired && type.element().kind() == Kind.STRING) {
          items.put("minLength", 1); // FieldReader's string lists hold non-empty strings
        }
        schema.set("items", items);
        yield schema;
      }
      case STRING_MAP -> {
        ObjectNode schema = Json.object().put("type", "object");
        schema.putObject("additionalProperties").put("type", "string");
        yield schema;
      }
      case RECORD -> of(type.type(), withRequired);
      case OBJECT ->
          Json.object().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    };
  }
}
