package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Structural pruning of a custom resource, as the API server does it before it stores one: a field its CRD's schema
 * does not declare is dropped, unless the schema says {@code x-kubernetes-preserve-unknown-fields} there or gives
 * {@code additionalProperties}; an embedded resource keeps {@code apiVersion}, {@code kind} and {@code metadata}.
 * Kubernetes' {@code staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go}. A status
 * field a CRD forgot (Metacontroller's {@code observedGeneration}) is gone on a cluster, and so it is here.
 */
final class UnknownFields {
  private UnknownFields() {}

  /** Prunes the object by the schema of its version in the CRD (nothing without one). */
  static void prune(ObjectNode object, JsonNode crd) {
    JsonNode schema = Nulls.schemaOf(crd, Meta.apiVersion(object));
    if (schema == null) {
      return;
    }
    for (String field : Trees.fieldNames(object)) {
      if (!field.equals("apiVersion") && !field.equals("kind") && !field.equals("metadata")) {
        pruneField(object, field, schema, false);
      }
    }
  }

  private static void pruneField(
      ObjectNode parent, String field, JsonNode schema, boolean embedded) {
    JsonNode property = schema.path("properties").get(field);
    JsonNode additional = schema.get("additionalProperties");
    if (property != null) {
      pruneValue(parent.get(field), property);
    } else if (additional != null && additional.isObject()) {
      pruneValue(parent.get(field), additional);
    } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
        && !(embedded
            && (field.equals("apiVersion") || field.equals("kind") || field.equals("metadata")))) {
      parent.remove(field);
    }
  }

  private static void pruneValue(JsonNode value, JsonNode schema) {
    if (value instanceof ObjectNode object) {
      if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
        return;
      }
      boolean embedded = schema.path("x-kubernetes-embedded-resource").asBoolean(false);
      for (String field : Trees.fieldNames(object)) {
        pruneField(object, field, schema, embedded);
      }
    } else if (value instanceof ArrayNode array && schema.has("items")) {
      for (JsonNode item : array) {
        pruneValue(item, schema.get("items"));
      }
    }
  }
}
