package dev.metahooks.kube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.RecordType.Field;
import dev.metahooks.kube.RecordType.FieldType;
import dev.metahooks.kube.RecordType.Kind;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a JSON object into a record, each component through the {@link FieldReader} call that reads its type, so
 * that problems have the same paths and words (and in the collecting mode, the same empty values).
 */
final class RecordReader {
  private RecordReader() {}

  @SuppressWarnings("unchecked")
  static <R> R read(FieldReader reader, Class<R> type) {
    RecordType record = RecordType.of(type);
    Object[] values = record.fields().stream().map(field -> component(reader, field)).toArray();
    return (R) record.create(values);
  }

  private static Object component(FieldReader reader, Field field) {
    String name = field.name();
    if (field.optional()) {
      return reader.isSet(name) ? optional(reader, field) : Optional.empty();
    }
    FieldType type = field.type();
    return switch (type.kind()) {
      case STRING ->
          Optional.of(reader.requiredString(name))
              .filter(value -> value.isEmpty() || matches(reader, field, value))
              .orElse("");
      case BOOLEAN ->
          requiredSet(reader, name) ? reader.optionalBoolean(name).orElse(false) : false;
      case INTEGER ->
          integer(type, requiredSet(reader, name) ? integer(reader, field) : Optional.empty());
      case ENUM -> requiredSet(reader, name) ? oneOf(reader, name, type.type()).orElse(null) : null;
      case LIST ->
          type.element().kind() == Kind.STRING
              ? reader.requiredStringList(name)
              : reader.requiredObjects(name).stream()
                  .map(item -> read(item, type.element().type()))
                  .toList();
      case STRING_MAP -> stringMap(reader.requiredStringMap(name));
      case RECORD -> read(reader.object(name), type.type());
      case OBJECT -> reader.object(name).node();
    };
  }

  /** An {@code Optional<...>} component that is set: what was wrong reads as empty. */
  private static Optional<?> optional(FieldReader reader, Field field) {
    String name = field.name();
    FieldType type = field.type();
    return switch (type.kind()) {
      case STRING -> reader.optionalString(name).filter(value -> matches(reader, field, value));
      case BOOLEAN -> reader.optionalBoolean(name);
      case INTEGER -> integer(reader, field).map(value -> integer(type, Optional.of(value)));
      case ENUM -> oneOf(reader, name, type.type());
      case LIST ->
          Optional.of(
              type.element().kind() == Kind.STRING
                  ? reader.optionalStringList(name)
                  : reader.optionalObjects(name).stream()
                      .map(item -> read(item, type.element().type()))
                      .toList());
      case STRING_MAP -> Optional.of(stringMap(reader.requiredStringMap(name)));
      case RECORD -> reader.optionalObject(name).map(object -> read(object, type.type()));
      case OBJECT -> reader.optionalObject(name).map(FieldReader::node);
    };
  }

  /** Whether a required field is set; "is required" when it is not. */
  private static boolean requiredSet(FieldReader reader, String name) {
    if (reader.isSet(name)) {
      return true;
    }
    reader.report(name, "is required");
    return false;
  }

  /**
   * Whether the string matches the field's {@link Pattern} anywhere in it, as the API server's schema check does;
   * "must match" when it does not. An empty required string was reported already, so it is not matched.
   */
  private static boolean matches(FieldReader reader, Field field, String value) {
    if (field.pattern().isEmpty() || field.pattern().get().matcher(value).find()) {
      return true;
    }
    reader.report(field.name(), "must match " + field.pattern().get().pattern());
    return false;
  }

  private static Optional<Long> integer(FieldReader reader, Field field) {
    if (field.range().isPresent()) {
      return reader.optionalInteger(
          field.name(), field.range().get().min(), field.range().get().max());
    }
    FieldType type = field.type();
    return type.min() == Long.MIN_VALUE
        ? reader.optionalInteger(field.name())
        : reader.optionalInteger(field.name(), type.min(), type.max());
  }

  /** The value as the component's class, 0 when there is none (the collecting mode's empty integer). */
  private static Object integer(FieldType type, Optional<Long> value) {
    long read = value.orElse(0L);
    return type.type() == int.class || type.type() == Integer.class
        ? (Object) (int) read
        : (Object) read;
  }

  private static Optional<Object> oneOf(FieldReader reader, String name, Class<?> enumType) {
    List<String> names =
        Arrays.stream(enumType.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toList();
    return reader
        .optionalOneOf(name, names)
        .map(value -> enumType.getEnumConstants()[names.indexOf(value)]);
  }

  private static Map<String, String> stringMap(ObjectNode map) {
    Map<String, String> copy = new LinkedHashMap<>();
    map.properties().forEach(entry -> copy.put(entry.getKey(), entry.getValue().asText()));
    return Collections.unmodifiableMap(copy);
  }
}
