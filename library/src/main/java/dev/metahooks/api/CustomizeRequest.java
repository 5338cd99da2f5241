package dev.metahooks.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A customize call (docs/metacontroller.md, section 7.1): the controller and the parent (also for decorators). */
public record CustomizeRequest(ObjectNode controller, ObjectNode parent) {

  public static CustomizeRequest read(ObjectNode body) {
    ObjectNode controller = Fields.optionalObject(body, "controller", "controller");
    ObjectNode parent = Fields.requireObject(body, "parent", "parent");
    Fields.requireIdentity(parent, "parent");
    return new CustomizeRequest(controller, parent);
  }

  public String name() {
    return parent.path("metadata").path("name").asText();
  }

  public String namespace() {
    return parent.path("metadata").path("namespace").asText("");
  }
}
