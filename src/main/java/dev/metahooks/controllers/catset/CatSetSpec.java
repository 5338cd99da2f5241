package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.kube.FieldReader;
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
record CatSetSpec(
    ObjectNode spec, Replicas replicas, JsonNode serviceName, List<ClaimTemplate> claimTemplates) {

  /**
   * {@code spec.replicas}, compared as the upstream JavaScript compares it. It must be a JSON number: upstream
   * also took text, null or nothing, and absent or non-numeric text (NaN) dropped every PersistentVolumeClaim,
   * so a typo cost the volumes. That parity is not kept (docs/controllers.md, deliberate deviations).
   */
  record Replicas(double value) {
    static Replicas of(JsonNode replicas) {
      if (replicas == null || !replicas.isNumber()) {
        throw new InvalidRequestException(
            "parent.spec.replicas",
            replicas == null || replicas.isNull()
                ? "is required"
                : "must be a number, not " + replicas.getNodeType().name().toLowerCase());
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
    FieldReader spec = FieldReader.requiredSpec(parent);
    Replicas replicas = finalizing ? new Replicas(0) : Replicas.of(spec.get("replicas"));
    return new CatSetSpec(spec.node(), replicas, spec.get("serviceName"), claimTemplates(spec));
  }

  private static List<ClaimTemplate> claimTemplates(FieldReader spec) {
    if (!JsValues.truthy(spec.get("volumeClaimTemplates"))) {
      return null;
    }
    List<ClaimTemplate> claims = new ArrayList<>();
    for (FieldReader template : spec.requiredObjects("volumeClaimTemplates")) {
      claims.add(
          new ClaimTemplate(template.object("metadata").requiredText("name"), template.node()));
    }
    return List.copyOf(claims);
  }

  /**
   * {@code spec.template}, checked when a Pod is built (a CatSet with no Pods to build never needs it): it
   * must have {@code metadata} and {@code spec} objects, which the Pod's name and hostname are written into.
   */
  ObjectNode template() {
    FieldReader template = FieldReader.of(spec.get("template"), "parent.spec.template");
    template.object("metadata");
    template.object("spec");
    return template.node();
  }
}
