package dev.metahooks.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A DecoratorController sync or finalize call (docs/metacontroller.md, section 6.1). The target is called {@code object} on
 * the wire and its attachments {@code attachments}.
 */
public record DecoratorRequest(
    ObjectNode controller,
    ObjectNode object,
    ObjectMap attachments,
    ObjectMap related,
    boolean finalizing,
    HookVersion version) {

  public static DecoratorRequest read(ObjectNode body, Hook hook) {
    ObjectNode controller = Fields.optionalObject(body, "controller", "controller");
    ObjectNode object = Fields.requireObject(body, "object", "object");
    Fields.requireIdentity(object, "object");
    boolean finalizing =
        Fields.optionalBoolean(body, "finalizing", "finalizing", hook == Hook.FINALIZE);
    if (finalizing) {
      FinalizeCall.requireReasonForDecorator(controller, object);
    }
    HookVersion version = HookVersion.of(controller, finalizing);
    String namespace = object.path("metadata").path("namespace").asText("");
    return new DecoratorRequest(
        controller,
        object,
        ObjectMap.readOwned(body.get("attachments"), "attachments", version, namespace),
        ObjectMap.readRelated(body.get("related"), "related", version, namespace),
        finalizing,
        version);
  }

  public String name() {
    return object.path("metadata").path("name").asText();
  }

  /** The target's namespace, "" for a cluster-scoped target. */
  public String namespace() {
    return object.path("metadata").path("namespace").asText("");
  }
}
