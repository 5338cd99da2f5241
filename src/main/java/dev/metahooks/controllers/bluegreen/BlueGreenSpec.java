package dev.metahooks.controllers.bluegreen;

import static dev.metahooks.kube.Nodes.requireObject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;

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
record BlueGreenSpec(String name, JsonNode replicas, JsonNode minReadySeconds, ObjectNode selector,
    ObjectNode template, ObjectNode service, String serviceName) {

  static BlueGreenSpec read(ObjectNode parent) {
    ObjectNode spec = requireObject(parent.get("spec"), "parent.spec");
    JsonNode replicas = integerOrNull(spec.get("replicas"), "parent.spec.replicas");
    JsonNode minReadySeconds = integerOrNull(spec.get("minReadySeconds"), "parent.spec.minReadySeconds");
    ObjectNode selector = requireObject(spec.get("selector"), "parent.spec.selector");
    JsonNode matchLabels = selector.get("matchLabels");
    if (matchLabels != null && !matchLabels.isNull() && !matchLabels.isObject()) {
      throw new InvalidRequestException("parent.spec.selector.matchLabels", "must be an object");
    }
    ObjectNode template = requireObject(spec.get("template"), "parent.spec.template");
    requireLabels(template, "parent.spec.template");
    ObjectNode service = requireObject(spec.get("service"), "parent.spec.service");
    JsonNode serviceName = requireObject(service.get("metadata"), "parent.spec.service.metadata").get("name");
    if (serviceName == null || !serviceName.isTextual() || serviceName.asText().isEmpty()) {
      throw new InvalidRequestException("parent.spec.service.metadata.name", "must be a non-empty string");
    }
    requireObject(requireObject(service.get("spec"), "parent.spec.service.spec").get("selector"),
        "parent.spec.service.spec.selector");
    return new BlueGreenSpec(parent.path("metadata").path("name").asText(), replicas, minReadySeconds, selector,
        template, service, serviceName.asText());
  }

  /** A pod template must carry labels: each ReplicaSet's labels are the template's plus its color. */
  static void requireLabels(ObjectNode template, String path) {
    requireObject(requireObject(template.get("metadata"), path + ".metadata").get("labels"), path + ".metadata.labels");
  }

  private static JsonNode integerOrNull(JsonNode value, String path) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isIntegralNumber() && !(value.isNumber() && value.doubleValue() == Math.rint(value.doubleValue()))) {
      throw new InvalidRequestException(path, "must be an integer");
    }
    return value;
  }
}
