package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.Comparator;

/**
 * The pod template a ReplicaSet was made from, kept as JSON in an annotation: the observed
 * {@code spec.template} is defaulted by the API server, so only this copy can be compared with the parent's.
 */
final class PodTemplates {
  static final String ANNOTATION = "bluegreendeployments.ctl.enisoc.com/pod-template-json";

  /** JSON.parse keeps the last of duplicate keys; the annotation is read the same way. */
  private static final ObjectReader LENIENT =
      Json.reader().without(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /** Numbers are equal when their values are, as JavaScript's {@code ===} compares them. */
  private static final Comparator<JsonNode> SAME_VALUE =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return Double.compare(a.doubleValue(), b.doubleValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  private PodTemplates() {}

  /** The annotation text for a template, as the JavaScript hook wrote it. */
  static String annotation(ObjectNode template) {
    return JavaScriptJson.stringify(template);
  }

  /** The template stored on an observed ReplicaSet; {@code path} names the ReplicaSet in errors. */
  static ObjectNode read(ObjectNode replicaSet, String path) {
    FieldReader annotations =
        FieldReader.of(replicaSet, path).objectOrEmpty("metadata").objectOrEmpty("annotations");
    String field = annotations.path(ANNOTATION);
    JsonNode given = annotations.get(ANNOTATION);
    if (given == null || given.isNull()) {
      throw new InvalidRequestException(
          field,
          "is missing: the ReplicaSet was not made by this controller, "
              + "or the annotation was removed");
    }
    String text = annotations.requiredText(ANNOTATION);
    JsonNode template;
    try {
      template = LENIENT.readTree(text);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(field, "is not valid JSON: " + e.getOriginalMessage());
    }
    if (template == null || !template.isObject()) {
      throw new InvalidRequestException(field, "must hold a JSON object");
    }
    return (ObjectNode) template;
  }

  /** Same template whatever the key order (the annotation may have been written by another serializer). */
  static boolean same(JsonNode a, JsonNode b) {
    return a.equals(SAME_VALUE, b);
  }
}
