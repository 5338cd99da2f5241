package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.Redaction;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Where a Secret's values can hide in a JSON value besides its {@code data} and {@code stringData}: in text that
 * holds a JSON document (a last-applied annotation, on the Secret or on any other object, holds the whole Secret),
 * and in text that was such a document until something cut it (a cut last-applied annotation is no longer JSON,
 * and with kubectl's sorted keys its {@code data} comes before the {@code kind} that would tell a Secret).
 */
final class SecretText {
  private SecretText() {}

  /** The JSON document (object or array) {@code node}'s text holds, or null. */
  static JsonNode embedded(JsonNode node) {
    if (!looksLikeJson(node)) {
      return null;
    }
    try {
      JsonNode parsed = JsonTrees.MAPPER.readTree(node.textValue());
      return parsed != null && parsed.isContainerNode() ? parsed : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Whether {@code node} is text that may hold a Secret's values: JSON holding a Secret, or JSON cut short. */
  static boolean mayHoldSecret(JsonNode node) {
    if (!looksLikeJson(node)) {
      return false;
    }
    JsonNode parsed = embedded(node);
    return parsed == null || holdsSecret(parsed);
  }

  /** Whether a Secret is {@code node} or within it, in its fields or in the JSON text of any of them. */
  static boolean holdsSecret(JsonNode node) {
    if (node == null) {
      return false;
    }
    if (node.isTextual()) {
      JsonNode parsed = embedded(node);
      return parsed != null && holdsSecret(parsed);
    }
    if (Objects.isSecret(node)) {
      return true;
    }
    for (JsonNode child : node) {
      if (holdsSecret(child)) {
        return true;
      }
    }
    return false;
  }

  /** Every Secret value in {@code tree} ({@link Redaction#secretValues}), and in every JSON text within it. */
  static Set<String> values(JsonNode tree) {
    Set<String> values = new HashSet<>(Redaction.secretValues(tree));
    addEmbedded(tree, values);
    return values;
  }

  private static void addEmbedded(JsonNode node, Set<String> values) {
    JsonNode parsed = embedded(node);
    if (parsed != null) {
      values.addAll(values(parsed));
    }
    node.forEach(child -> addEmbedded(child, values));
  }

  private static boolean looksLikeJson(JsonNode node) {
    if (node == null || !node.isTextual()) {
      return false;
    }
    String text = node.textValue().stripLeading();
    return text.startsWith("{") || text.startsWith("[");
  }
}
