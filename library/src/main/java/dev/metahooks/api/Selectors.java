package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Label selectors of a controller object ({@code matchLabels} or {@code matchAnnotations}, and
 * {@code matchExpressions}) evaluated against an object's labels or annotations, as Metacontroller evaluates them.
 */
public final class Selectors {
  /** {@code UNKNOWN}: the selector is malformed, so Metacontroller would not have run the controller with it. */
  public enum Match {
    YES,
    NO,
    UNKNOWN
  }

  private Selectors() {}

  /** An absent or null selector selects everything, like {@code {}}. */
  public static Match matches(JsonNode selector, String exactField, JsonNode values) {
    if (selector == null || selector.isNull() || selector.isMissingNode()) {
      return Match.YES;
    }
    if (!selector.isObject()) {
      return Match.UNKNOWN;
    }
    JsonNode exact = selector.path(exactField);
    JsonNode expressions = selector.path("matchExpressions");
    if (!exact.isMissingNode() && !exact.isNull() && !exact.isObject()
        || !expressions.isMissingNode() && !expressions.isNull() && !expressions.isArray()) {
      return Match.UNKNOWN;
    }
    Match result = Match.YES;
    for (var entry : exact.properties()) {
      if (!entry.getValue().isTextual()) {
        return Match.UNKNOWN;
      }
      if (!entry.getValue().textValue().equals(values.path(entry.getKey()).textValue())) {
        result = Match.NO;
      }
    }
    for (JsonNode expression : expressions) {
      Match one = expression(expression, values);
      if (one == Match.UNKNOWN) {
        return one;
      }
      if (one == Match.NO) {
        result = Match.NO;
      }
    }
    return result;
  }

  private static Match expression(JsonNode expression, JsonNode values) {
    JsonNode key = expression.path("key");
    JsonNode options = expression.path("values");
    if (!key.isTextual() || !(options.isMissingNode() || options.isNull() || options.isArray())) {
      return Match.UNKNOWN;
    }
    JsonNode value = values.path(key.textValue());
    boolean present = value.isTextual();
    boolean listed = false;
    for (JsonNode option : options) {
      listed |= present && option.isTextual() && option.textValue().equals(value.textValue());
    }
    return switch (expression.path("operator").asText("")) {
      case "In" -> options.isEmpty() ? Match.UNKNOWN : of(listed);
      case "NotIn" -> options.isEmpty() ? Match.UNKNOWN : of(!listed);
      case "Exists" -> options.isEmpty() ? of(present) : Match.UNKNOWN;
      case "DoesNotExist" -> options.isEmpty() ? of(!present) : Match.UNKNOWN;
      default -> Match.UNKNOWN;
    };
  }

  private static Match of(boolean matches) {
    return matches ? Match.YES : Match.NO;
  }
}
