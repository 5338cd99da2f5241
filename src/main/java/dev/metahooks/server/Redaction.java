package dev.metahooks.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Keeps Secret data out of logs. Hook requests and responses carry Secrets whole (children, related objects,
 * generated credentials); anything about a request that is logged goes through here first.
 */
public final class Redaction {
  static final String REDACTED = "<redacted>";
  private static final int SHORTEST_SECRET = 4;

  private Redaction() {}

  /** A copy of {@code body} in which every Secret's {@code data} and {@code stringData} values are replaced. */
  public static JsonNode redactSecrets(JsonNode body) {
    JsonNode copy = body.deepCopy();
    forEachSecret(copy, values -> values.fields().forEachRemaining(field -> values.put(field.getKey(), REDACTED)));
    return copy;
  }

  /** Every Secret value in {@code body}, as sent and base64-decoded, to mask wherever it could reappear. */
  public static Set<String> secretValues(JsonNode body) {
    Set<String> found = new HashSet<>();
    forEachSecret(body, values -> values.elements().forEachRemaining(value -> {
      String text = value.asText();
      if (text.length() >= SHORTEST_SECRET) {
        found.add(text);
        decoded(text).ifPresent(found::add);
      }
    }));
    return found;
  }

  /** {@code text} with every occurrence of any of {@code secrets} replaced. */
  public static String mask(String text, Set<String> secrets) {
    if (text == null) {
      return null;
    }
    String masked = text;
    for (String secret : secrets) {
      masked = masked.replace(secret, REDACTED);
    }
    return masked;
  }

  private interface ValuesVisitor {
    void visit(ObjectNode values);
  }

  private static void forEachSecret(JsonNode node, ValuesVisitor visitor) {
    if (node.isObject()) {
      if ("Secret".equals(node.path("kind").asText())) {
        for (String field : new String[] {"data", "stringData"}) {
          if (node.get(field) instanceof ObjectNode values) {
            visitor.visit(values);
          }
        }
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        forEachSecret(it.next().getValue(), visitor);
      }
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> forEachSecret(child, visitor));
    }
  }

  private static java.util.Optional<String> decoded(String base64) {
    try {
      String text = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
      return text.length() >= SHORTEST_SECRET ? java.util.Optional.of(text) : java.util.Optional.empty();
    } catch (IllegalArgumentException e) {
      return java.util.Optional.empty();
    }
  }
}
