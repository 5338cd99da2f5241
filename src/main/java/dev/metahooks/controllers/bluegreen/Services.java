package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The parent's {@code spec.service}, as a Service whose selector picks the active color's pods. */
final class Services {
  private Services() {}

  static ObjectNode build(BlueGreenSpec spec, String activeColor) {
    ObjectNode service = spec.service().deepCopy();
    service.put("apiVersion", "v1").put("kind", "Service");
    ((ObjectNode) service.get("spec").get("selector")).put("color", activeColor);
    return service;
  }
}
