package dev.metahooks.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import java.util.Comparator;

/**
 * JSON written in a test, read as the tree an answer is compared with: two objects are equal whatever the order
 * of their keys, as the API server and Metacontroller read them, while a comparison of texts would hold the
 * order too.
 */
public final class JsonLiteral {
  private JsonLiteral() {}

  /**
   * Two trees as a JSON reader tells them apart: numbers by value, so a count built as a {@code long} equals the
   * same count read from text (an {@code int} node), which {@link JsonNode#equals(Object)} does not grant. Typed
   * for any assertion on a tree ({@code assertThat(node)} asserts on it as an {@code Iterable}).
   */
  public static <T> Comparator<T> sameJson() {
    return (a, b) -> ((JsonNode) a).equals(JsonLiteral::compareValues, (JsonNode) b) ? 0 : 1;
  }

  private static int compareValues(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return a.equals(b) ? 0 : 1;
  }

  public static JsonNode json(String text) {
    try {
      return JsonTrees.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + text, e);
    }
  }
}
