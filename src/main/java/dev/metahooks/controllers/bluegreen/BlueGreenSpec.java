package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.FieldReader;

/**
 * The parts of a BlueGreenDeployment ({@code ctl.enisoc.com/v1}) the hook reads.
 *
 * @param name the parent's name; ReplicaSets are {@code <name>-blue} and {@code <name>-green}
 * @param replicas {@code spec.replicas}, null when absent (the ReplicaSets then get Kubernetes' default)
 * @param minReadySeconds {@code spec.minReadySeconds}, null when absent
 * @param selector {@code spec.selector}, copied into each ReplicaSet with a color added
 * @param template {@code spec.template}, the desired pod template
 * @param service {@code spec.service}, the Service to create, whose selector gets the active color
 * @param serviceName {@code spec.service.metadata.name}
 */
record BlueGreenSpec(
    String name,
    JsonNode replicas,
    JsonNode minReadySeconds,
    ObjectNode selector,
    ObjectNode template,
    ObjectNode service,
    String serviceName) {

  static BlueGreenSpec read(ObjectNode parent) {
    FieldReader spec = FieldReader.requiredSpec(parent);
    FieldReader selector = spec.object("selector");
    selector.optionalObject("matchLabels");
    FieldReader template = spec.object("template");
    requireLabels(template);
    FieldReader service = spec.object("service");
    String serviceName = service.object("metadata").requiredString("name");
    service.object("spec").object("selector");
    return new BlueGreenSpec(
        parent.path("metadata").path("name").asText(),
        integerOrNull(spec, "replicas"),
        integerOrNull(spec, "minReadySeconds"),
        selector.node(),
        template.node(),
        service.node(),
        serviceName);
  }

  /** A pod template must carry labels: each ReplicaSet's labels are the template's plus its color. */
  static void requireLabels(FieldReader template) {
    template.object("metadata").object("labels");
  }

  /** The field as given (the ReplicaSets copy it), once it is known to be an integer; null when absent. */
  private static JsonNode integerOrNull(FieldReader spec, String field) {
    return spec.optionalInteger(field).isPresent() ? spec.get(field) : null;
  }
}
