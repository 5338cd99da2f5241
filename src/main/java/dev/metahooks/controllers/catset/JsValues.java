package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * JSON values read the way the upstream CatSet hook (JavaScript) reads them, so that odd but accepted input
 * (the CatSet CRD has no schema) gives the same answer: truthiness, number-to-text for names, and the JSON
 * round trip that copies templates.
 */
final class JsValues {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsValues() {}

  /** JavaScript truthiness of a JSON value; absent is {@code undefined}, so falsy. */
  static boolean truthy(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return false;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isNumber()) {
      double d = value.doubleValue();
      return d != 0 && !Double.isNaN(d);
    }
    if (value.isTextual()) {
      return !value.textValue().isEmpty();
    }
    return true;
  }

  /** JavaScript {@code String(number)}: the shortest digits that read back as the same number. */
  static String numberToString(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return "0";
    }
    if (d < 0) {
      return "-" + numberToString(-d);
    }
    BigDecimal exact = new BigDecimal(d);
    BigDecimal shortest = exact;
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == d) {
        shortest = rounded;
        break;
      }
    }
    shortest = shortest.stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int k = digits.length();
    int n = k - shortest.scale(); // the value is 0.digits × 10^n
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    int exponent = n - 1;
    String sign = exponent < 0 ? "-" : "+";
    String mantissa = k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return mantissa + "e" + sign + Math.abs(exponent);
  }

  /**
   * {@code JSON.parse(JSON.stringify(value))}: a deep copy in which every number has become a double, as
   * JavaScript holds it (integers beyond 2^53 lose their last digits, 1.0 becomes 1).
   */
  static JsonNode copy(JsonNode value) {
    if (value.isObject()) {
      ObjectNode copy = NODES.objectNode();
      value.fields().forEachRemaining(field -> copy.set(field.getKey(), copy(field.getValue())));
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = NODES.arrayNode(value.size());
      value.forEach(item -> copy.add(copy(item)));
      return copy;
    }
    if (value.isNumber()) {
      return number(value.doubleValue());
    }
    return value.deepCopy();
  }

  /** A number node for a JavaScript number, integral values as integers so they print without a fraction. */
  static JsonNode number(double d) {
    if (d == Math.rint(d) && !Double.isInfinite(d)) {
      if (d >= Integer.MIN_VALUE && d <= Integer.MAX_VALUE) {
        return NODES.numberNode((int) d);
      }
      if (d >= -0x1p63 && d < 0x1p63) {
        return NODES.numberNode((long) d);
      }
    }
    return NODES.numberNode(d);
  }
}
