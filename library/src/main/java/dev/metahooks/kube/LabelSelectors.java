package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes label selectors ({@code matchLabels}, {@code matchExpressions}) taken from a spec and passed on,
 * for example in a customize rule. They are checked first: Metacontroller decodes v2 answers strictly and
 * refuses malformed selectors, and a misspelt field silently dropped would widen the selection to everything.
 */
public final class LabelSelectors {
  private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private LabelSelectors() {}

  /**
   * A checked copy of {@code selector}. {@code {}} stays {@code {}} (it selects everything); an empty
   * {@code matchLabels} or {@code matchExpressions} is kept as given.
   */
  public static ObjectNode copy(JsonNode selector, String path) {
    if (!selector.isObject()) {
      throw new InvalidRequestException(path, "must be a label selector (an object)");
    }
    ObjectNode copy = Json.object();
    for (Map.Entry<String, JsonNode> field : selector.properties()) {
      String fieldPath = path + "." + field.getKey();
      JsonNode value = field.getValue();
      switch (field.getKey()) {
        case "matchLabels" -> {
          if (!value.isNull()) {
            copy.set("matchLabels", StringMaps.copy(value, fieldPath));
          }
        }
        case "matchExpressions" -> {
          if (!value.isNull()) {
            copy.set("matchExpressions", expressions(value, fieldPath));
          }
        }
        default ->
            throw new InvalidRequestException(
                fieldPath, "is not a label selector field (matchLabels, matchExpressions)");
      }
    }
    return copy;
  }

  private static ArrayNode expressions(JsonNode value, String path) {
    if (!value.isArray()) {
      throw new InvalidRequestException(path, "must be a list");
    }
    ArrayNode copy = JsonTrees.MAPPER.createArrayNode();
    for (int i = 0; i < value.size(); i++) {
      copy.add(expression(value.get(i), path + "[" + i + "]"));
    }
    return copy;
  }

  private static ObjectNode expression(JsonNode value, String path) {
    if (!value.isObject()) {
      throw new InvalidRequestException(path, "must be an object with key, operator and values");
    }
    for (String name : (Iterable<String>) value::fieldNames) {
      if (!Set.of("key", "operator", "values").contains(name)) {
        throw new InvalidRequestException(
            path + "." + name, "is not a selector requirement field (key, operator, values)");
      }
    }
    JsonNode key = value.path("key");
    if (!key.isTextual() || key.asText().isEmpty()) {
      throw new InvalidRequestException(path + ".key", "must be a non-empty string");
    }
    JsonNode operator = value.path("operator");
    if (!operator.isTextual() || !OPERATORS.contains(operator.asText())) {
      throw new InvalidRequestException(
          path + ".operator", "must be one of In, NotIn, Exists, DoesNotExist");
    }
    ObjectNode copy = Json.object().put("key", key.asText()).put("operator", operator.asText());
    JsonNode values = value.get("values");
    boolean hasValues = values != null && !values.isNull();
    if (hasValues && !values.isArray()) {
      throw new InvalidRequestException(path + ".values", "must be a list of strings");
    }
    boolean needsValues = operator.asText().equals("In") || operator.asText().equals("NotIn");
    if (needsValues && (!hasValues || values.isEmpty())) {
      throw new InvalidRequestException(
          path + ".values", "must not be empty for operator " + operator.asText());
    }
    if (!needsValues && hasValues && !values.isEmpty()) {
      throw new InvalidRequestException(
          path + ".values", "must be empty for operator " + operator.asText());
    }
    if (hasValues) {
      ArrayNode list = copy.putArray("values");
      for (int i = 0; i < values.size(); i++) {
        if (!values.get(i).isTextual()) {
          throw new InvalidRequestException(path + ".values[" + i + "]", "must be a string");
        }
        list.add(values.get(i).asText());
      }
    }
    return copy;
  }
}
