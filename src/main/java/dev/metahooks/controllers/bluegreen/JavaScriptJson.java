package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Map;

/**
 * JSON text exactly as JavaScript's {@code JSON.stringify(value)} writes it: compact, keys in their given
 * order, numbers as JavaScript prints a double, and only the escapes JavaScript uses. The pod-template
 * annotation was first written by a JavaScript hook; writing it the same way keeps existing ReplicaSets
 * unchanged when this hook takes over.
 */
final class JavaScriptJson {
  private JavaScriptJson() {}

  static String stringify(JsonNode value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(JsonNode value, StringBuilder out) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      out.append("null");
    } else if (value.isObject()) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(field.getKey(), out);
        out.append(':');
        write(field.getValue(), out);
      }
      out.append('}');
    } else if (value.isArray()) {
      out.append('[');
      for (int i = 0; i < value.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(value.get(i), out);
      }
      out.append(']');
    } else if (value.isNumber()) {
      out.append(number(value.doubleValue()));
    } else if (value.isBoolean()) {
      out.append(value.booleanValue());
    } else {
      quote(value.asText(), out);
    }
  }

  /** JavaScript's Number::toString for a finite double; JSON.stringify writes non-finite numbers as null. */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "null";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal decimal = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
    String digits = decimal.unscaledValue().toString();
    int k = digits.length();
    int n = k - decimal.scale(); // value = 0.digits × 10^n
    StringBuilder text = new StringBuilder(value < 0 ? "-" : "");
    if (k <= n && n <= 21) {
      text.append(digits).append("0".repeat(n - k));
    } else if (0 < n && n <= 21) {
      text.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      text.append("0.").append("0".repeat(-n)).append(digits);
    } else {
      text.append(digits.charAt(0));
      if (k > 1) {
        text.append('.').append(digits, 1, k);
      }
      text.append('e').append(n - 1 >= 0 ? "+" : "-").append(Math.abs(n - 1));
    }
    return text.toString();
  }

  private static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || isLoneSurrogate(text, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean isLoneSurrogate(String text, int i) {
    char c = text.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
    }
    return false;
  }
}
