package dev.metahooks.controllers.serviceperpod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/** The Service {@code <statefulset>-<index>} that selects exactly one Pod of a StatefulSet. */
final class Services {
  private Services() {}

  /**
   * @param labelKey the Pod label that carries the Pod's name (set by the pod-name-label decorator, or
   *     Kubernetes' own {@code statefulset.kubernetes.io/pod-name})
   */
  static ObjectNode build(String statefulSetName, long index, String labelKey, ArrayNode ports) {
    String name = statefulSetName + "-" + index;
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    ObjectNode metadata = service.putObject("metadata").put("name", name);
    metadata.putObject("labels").put("app", "service-per-pod");
    ObjectNode spec = service.putObject("spec");
    spec.putObject("selector").put(labelKey, name);
    spec.set(
        "ports",
        ports); // the same list in every Service: built for this answer, never changed after
    return service;
  }
}
