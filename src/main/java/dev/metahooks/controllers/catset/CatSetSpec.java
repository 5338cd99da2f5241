package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the CatSet hook reads from {@code parent.spec}. The CRD keeps unknown fields without a schema, so the
 * values are taken as the upstream JavaScript takes them; only shapes that would crash it are refused.
 *
 * @param replicas {@code spec.replicas}, or 0 while finalizing
 * @param serviceName {@code spec.serviceName} as given, null when absent
 * @param claimTemplates {@code spec.volumeClaimTemplates}, null when absent or falsy
 */
record CatSetSpec(ObjectNode spec, Replicas replicas, JsonNode serviceName, List<ClaimTemplate> claimTemplates) {

  /**
   * {@code spec.replicas}, compared as the upstream JavaScript compares it. It must be a JSON number: upstream
   * also took text, null or nothing, and absent or non-numeric text (NaN) dropped every PersistentVolumeClaim,
   * so a typo cost the volumes. That parity is not kept (README, deliberate deviations).
   */
  record Replicas(double value) {
    static Replicas of(JsonNode replicas) {
      if (replicas == null || !replicas.isNumber()) {
        throw new InvalidRequestException("parent.spec.replicas", replicas == null || replicas.isNull()
            ? "is required" : "must be a number, not " + replicas.getNodeType().name().toLowerCase());
      }
      return new Replicas(replicas.doubleValue());
    }

    /** {@code x < replicas}. */
    boolean exceeds(double x) {
      return x < value;
    }

    /** {@code x >= replicas}. */
    boolean reachedBy(double x) {
      return x >= value;
    }

    /** {@code x === replicas}. */
    boolean strictlyEquals(double x) {
      return x == value;
    }
  }

  /** One entry of {@code spec.volumeClaimTemplates}, with its {@code metadata.name}. */
  record ClaimTemplate(String name, ObjectNode template) {}

  static CatSetSpec read(ObjectNode parent, boolean finalizing) {
    JsonNode spec = parent.get("spec");
    if (spec == null || spec.isNull()) {
      throw new InvalidRequestException("parent.spec", "is required");
    }
    if (!spec.isObject()) {
      throw new InvalidRequestException("parent.spec", "must be an object");
    }
    Replicas replicas = finalizing ? new Replicas(0) : Replicas.of(spec.get("replicas"));
    return new CatSetSpec((ObjectNode) spec, replicas, spec.get("serviceName"),
        claimTemplates(spec.get("volumeClaimTemplates")));
  }

  private static List<ClaimTemplate> claimTemplates(JsonNode templates) {
    if (!JsValues.truthy(templates)) {
      return null;
    }
    String path = "parent.spec.volumeClaimTemplates";
    if (!templates.isArray()) {
      throw new InvalidRequestException(path, "must be an array");
    }
    List<ClaimTemplate> claims = new ArrayList<>(templates.size());
    for (int i = 0; i < templates.size(); i++) {
      JsonNode template = templates.get(i);
      String at = path + "[" + i + "]";
      if (!template.isObject()) {
        throw new InvalidRequestException(at, "must be an object");
      }
      JsonNode metadata = template.get("metadata");
      if (metadata == null || !metadata.isObject()) {
        throw new InvalidRequestException(at + ".metadata", metadata == null || metadata.isNull()
            ? "is required" : "must be an object");
      }
      JsonNode name = metadata.get("name");
      if (name == null || !name.isTextual()) {
        throw new InvalidRequestException(at + ".metadata.name", name == null || name.isNull()
            ? "is required" : "must be a string");
      }
      claims.add(new ClaimTemplate(name.textValue(), (ObjectNode) template));
    }
    return List.copyOf(claims);
  }

  /**
   * {@code spec.template}, checked when a Pod is built (a CatSet with no Pods to build never needs it): it
   * must have {@code metadata} and {@code spec} objects, which the Pod's name and hostname are written into.
   */
  ObjectNode template() {
    JsonNode template = spec.get("template");
    if (template == null || template.isNull()) {
      throw new InvalidRequestException("parent.spec.template", "is required");
    }
    if (!template.isObject()) {
      throw new InvalidRequestException("parent.spec.template", "must be an object");
    }
    for (String part : List.of("metadata", "spec")) {
      JsonNode value = template.get(part);
      if (value == null || value.isNull()) {
        throw new InvalidRequestException("parent.spec.template." + part, "is required");
      }
      if (!value.isObject()) {
        throw new InvalidRequestException("parent.spec.template." + part, "must be an object");
      }
    }
    return (ObjectNode) template;
  }
}
