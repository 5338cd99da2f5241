package dev.metahooks.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;

/**
 * JSON written in a test, read as the tree an answer is compared with: two objects are equal whatever the order
 * of their keys, as the API server and Metacontroller read them, while a comparison of texts would hold the
 * order too.
 */
public final class JsonLiteral {
  private JsonLiteral() {}

  public static JsonNode json(String text) {
    try {
      return JsonTrees.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + text, e);
    }
  }
}
