package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;

/** How the report names an object and tells a Secret. */
final class Objects {
  private Objects() {}

  /** {@code Kind namespace/name}; a child without a namespace lives in its namespaced parent's. */
  static String describe(JsonNode object, String defaultNamespace) {
    String namespace = object.path("metadata").path("namespace").asText(defaultNamespace);
    String name = object.path("metadata").path("name").asText("?");
    return object.path("kind").asText("?")
        + " "
        + (namespace.isEmpty() ? "" : namespace + "/")
        + name;
  }

  /** The identity Metacontroller matches children by: apiVersion, kind, namespace, name. */
  static String key(JsonNode object, String defaultNamespace) {
    return object.path("apiVersion").asText() + " " + describe(object, defaultNamespace);
  }

  static boolean isSecret(JsonNode object) {
    return "Secret".equals(object.path("kind").asText());
  }
}
