package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Kubernetes label selectors ({@code matchLabels}, {@code matchExpressions}) and Metacontroller's annotation selectors. */
final class Selectors {
  private Selectors() {}

  /** Whether {@code labels} satisfy the selector; an absent or null selector selects everything. */
  static boolean matches(JsonNode selector, Map<String, String> labels) {
    return matches(selector, "matchLabels", labels);
  }

  /** The same for an annotation selector ({@code matchAnnotations}, {@code matchExpressions}). */
  static boolean matchesAnnotations(JsonNode selector, Map<String, String> annotations) {
    return matches(selector, "matchAnnotations", annotations);
  }

  /** True when the selector has neither exact matches nor expressions. */
  static boolean isEmpty(JsonNode selector) {
    return selector == null
        || selector.isNull()
        || (selector.path("matchLabels").size() == 0
            && selector.path("matchExpressions").size() == 0);
  }

  private static boolean matches(JsonNode selector, String exactField, Map<String, String> values) {
    if (selector == null || selector.isNull() || selector.isMissingNode()) {
      return true;
    }
    if (!selector.isObject()) {
      throw new IllegalArgumentException("a selector must be an object, got " + selector);
    }
    for (var entry : selector.path(exactField).properties()) {
      if (!entry.getValue().asText().equals(values.get(entry.getKey()))) {
        return false;
      }
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      if (!matchesExpression(expression, values)) {
        return false;
      }
    }
    return true;
  }

  private static boolean matchesExpression(JsonNode expression, Map<String, String> values) {
    String key = expression.path("key").asText();
    String operator = expression.path("operator").asText();
    Set<String> options = new HashSet<>();
    expression.path("values").forEach(v -> options.add(v.asText()));
    boolean present = values.containsKey(key);
    return switch (operator) {
      case "In" -> {
        requireValues(expression, options, true);
        yield present && options.contains(values.get(key));
      }
      case "NotIn" -> {
        requireValues(expression, options, true);
        yield !present || !options.contains(values.get(key));
      }
      case "Exists" -> {
        requireValues(expression, options, false);
        yield present;
      }
      case "DoesNotExist" -> {
        requireValues(expression, options, false);
        yield !present;
      }
      default ->
          throw new IllegalArgumentException(
              "\"" + operator + "\" is not a valid selector operator");
    };
  }

  private static void requireValues(JsonNode expression, Set<String> values, boolean wanted) {
    if (wanted && values.isEmpty()) {
      throw new IllegalArgumentException(
          "selector expression " + expression + ": values must be non-empty");
    }
    if (!wanted && !values.isEmpty()) {
      throw new IllegalArgumentException(
          "selector expression " + expression + ": values must be empty");
    }
  }

  private static final java.util.regex.Pattern LABEL_VALUE =
      java.util.regex.Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
  private static final java.util.regex.Pattern QUALIFIED_NAME =
      java.util.regex.Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  /**
   * A selector converted as {@code metav1.LabelSelectorAsSelector} does, which checks keys as qualified names and
   * values as label values (at most 63 characters of {@code [A-Za-z0-9_.-]}, alphanumeric at both ends), so an
   * annotation selector on values such as {@code 80:8080} is refused.
   */
  static void requireLabelSyntax(JsonNode selector, String exactField, String context) {
    if (!selector.isObject()) {
      return;
    }
    selector
        .path(exactField)
        .properties()
        .forEach(e -> check(e.getKey(), e.getValue().asText(""), context));
    for (JsonNode expression : selector.path("matchExpressions")) {
      String key = expression.path("key").asText("");
      expression.path("values").forEach(v -> check(key, v.asText(""), context));
      if (expression.path("values").isEmpty()) {
        check(key, "", context);
      }
    }
  }

  private static void check(String key, String value, String context) {
    String name = key.contains("/") ? key.substring(key.indexOf('/') + 1) : key;
    if (!QUALIFIED_NAME.matcher(key).matches() || name.length() > 63) {
      throw new IllegalArgumentException(context + ": invalid key \"" + key + "\"");
    }
    if (value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
      throw new IllegalArgumentException(
          context
              + ": invalid value \""
              + value
              + "\" for key \""
              + key
              + "\": a label value has at most 63 characters of [A-Za-z0-9_.-], alphanumeric at both ends");
    }
  }
}
