package dev.metahooks.emulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** JSON tree helpers of the emulator: copies, numeric-aware equality, Go-like canonical text. */
final class Trees {
  /** Lenient on purpose: what Metacontroller reads is checked by the emulator, not by the parser. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  /** Numbers compare by value (an int 1 and a long 1 are the same, as in Go's decoded JSON). */
  private static final Comparator<JsonNode> VALUES =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  private Trees() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  static ObjectNode copy(ObjectNode node) {
    return node == null ? null : node.deepCopy();
  }

  /** A deep copy in the form the parser gives (ints as ints), so stored trees compare alike. */
  static JsonNode normalize(JsonNode node) {
    try {
      return MAPPER.readTree(MAPPER.writeValueAsBytes(node));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static ObjectNode normalizeObject(JsonNode node) {
    return (ObjectNode) normalize(node);
  }

  /** Deep equality with numbers compared by value; null, JSON null and absent are all "nothing". */
  static boolean same(JsonNode a, JsonNode b) {
    return equal(a, b, VALUES);
  }

  private static boolean equal(JsonNode a, JsonNode b, Comparator<JsonNode> values) {
    boolean aNothing = a == null || a.isNull() || a.isMissingNode();
    boolean bNothing = b == null || b.isNull() || b.isMissingNode();
    if (aNothing || bNothing) {
      return aNothing == bNothing;
    }
    return a.equals(values, b);
  }

  /** A copy with every object's keys sorted, as Go's encoding/json writes maps. */
  /**
   * Go's {@code reflect.DeepEqual} over decoded JSON, as Metacontroller compares: an integer literal decodes
   * to int64 and one with a fraction or exponent to float64, so {@code 3} and {@code 3.0} differ.
   */
  static boolean deepEqual(JsonNode a, JsonNode b) {
    return equal(a, b, GO_VALUES);
  }

  private static final Comparator<JsonNode> GO_VALUES =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          if (a.isIntegralNumber() != b.isIntegralNumber()) {
            return 1;
          }
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  /** Integral floating numbers as integers, as the API server returns what it stored ({@code 3.0} reads back as 3). */
  static JsonNode integralNumbers(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String field : fieldNames(object)) {
        object.set(field, integralNumbers(object.get(field)));
      }
      return object;
    }
    if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, integralNumbers(array.get(i)));
      }
      return array;
    }
    if (node.isFloatingPointNumber()
        && node.decimalValue().stripTrailingZeros().scale() <= 0
        && Math.abs(node.doubleValue()) < 9.0e15) {
      return com.fasterxml.jackson.databind.node.LongNode.valueOf(node.longValue());
    }
    return node;
  }

  static JsonNode sorted(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isObject()) {
      ObjectNode sorted = object();
      new TreeSet<>(fieldNames(node)).forEach(key -> sorted.set(key, sorted(node.get(key))));
      return sorted;
    }
    if (node.isArray()) {
      ArrayNode sorted = array();
      node.forEach(item -> sorted.add(sorted(item)));
      return sorted;
    }
    return node.deepCopy();
  }

  /** Compact JSON with sorted keys: the text Metacontroller stores in its last-applied annotation. */
  static String canonical(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(sorted(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** A string-to-string map field (labels, annotations); non-string values are skipped. */
  static Map<String, String> stringMap(JsonNode node) {
    Map<String, String> map = new LinkedHashMap<>();
    if (node != null && node.isObject()) {
      node.properties()
          .forEach(
              e -> {
                if (e.getValue().isTextual()) {
                  map.put(e.getKey(), e.getValue().asText());
                }
              });
    }
    return map;
  }

  /** The value at a dotted path such as {@code spec.template}, or null. */
  static JsonNode at(JsonNode node, String dottedPath) {
    JsonNode current = node;
    for (String part : dottedPath.split("\\.")) {
      if (current == null || !current.isObject()) {
        return null;
      }
      current = current.get(part);
    }
    return current;
  }

  /** Sets the value at a dotted path, creating objects on the way (as unstructured.SetNestedField does). */
  static void setAt(ObjectNode node, String dottedPath, JsonNode value) {
    String[] parts = dottedPath.split("\\.");
    ObjectNode current = node;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode next = current.get(parts[i]);
      if (next == null || !next.isObject()) {
        next = current.putObject(parts[i]);
      }
      current = (ObjectNode) next;
    }
    current.set(parts[parts.length - 1], value == null ? null : value.deepCopy());
  }
}
