package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.RecordType.Field;
import dev.metahooks.kube.RecordType.FieldType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a record as a JSON object, its components in declaration order (so an answer's bytes follow the record);
 * a {@code null} or an empty {@code Optional} leaves its field out.
 */
final class RecordWriter {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RecordWriter() {}

  static ObjectNode write(Object record) {
    ObjectNode object = Json.object();
    for (Field field : RecordType.of(record.getClass()).fields()) {
      Object value = RecordType.value(field, record);
      if (value instanceof Optional<?> optional) {
        value = optional.orElse(null);
      }
      if (value != null) {
        object.set(field.name(), node(field.type(), value));
      }
    }
    return object;
  }

  private static JsonNode node(FieldType type, Object value) {
    return switch (type.kind()) {
      case STRING -> NODES.textNode((String) value);
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case INTEGER ->
          value instanceof Integer small ? NODES.numberNode(small) : NODES.numberNode((Long) value);
      case ENUM -> NODES.textNode(((Enum<?>) value).name());
      case LIST -> {
        ArrayNode array = NODES.arrayNode();
        ((List<?>) value).forEach(item -> array.add(node(type.element(), item)));
        yield array;
      }
      case STRING_MAP -> {
        ObjectNode map = Json.object();
        ((Map<?, ?>) value).forEach((key, item) -> map.put((String) key, (String) item));
        yield map;
      }
      case RECORD -> write(value);
      case OBJECT -> (ObjectNode) value;
    };
  }
}
