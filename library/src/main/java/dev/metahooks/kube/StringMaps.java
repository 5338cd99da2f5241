package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.util.Map;

/** Maps of strings to strings, such as labels, ConfigMap {@code data} and Secret {@code data}. */
public final class StringMaps {
  private StringMaps() {}

  /** A copy of {@code value}, which must be an object whose values are all strings; {@code path} names it. */
  public static ObjectNode copy(JsonNode value, String path) {
    if (!value.isObject()) {
      throw new InvalidRequestException(path, "must be a map of strings");
    }
    ObjectNode copy = Json.object();
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      if (!entry.getValue().isTextual()) {
        throw new InvalidRequestException(path + "['" + entry.getKey() + "']", "must be a string");
      }
      copy.put(entry.getKey(), entry.getValue().asText());
    }
    return copy;
  }
}
