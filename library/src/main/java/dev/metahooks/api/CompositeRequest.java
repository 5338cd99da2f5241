package dev.metahooks.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * A CompositeController sync or finalize call (docs/metacontroller.md, section 5.1).
 *
 * @param controller the CompositeController object, as Metacontroller cached it
 * @param parent the parent object, whole
 * @param children observed children of every declared child type
 * @param related objects selected by the customize hook ({@code {}} without one)
 * @param finalizing true when this is a finalize call
 * @param version the hook API version the call was made with
 */
public record CompositeRequest(
    ObjectNode controller,
    ObjectNode parent,
    ObjectMap children,
    ObjectMap related,
    boolean finalizing,
    HookVersion version) {

  /** Reads and checks a request body; {@code hook} decides {@code finalizing} if the body does not say. */
  public static CompositeRequest read(ObjectNode body, Hook hook) {
    ObjectNode controller = Fields.optionalObject(body, "controller", "controller");
    ObjectNode parent = Fields.requireObject(body, "parent", "parent");
    Fields.requireIdentity(parent, "parent");
    boolean finalizing =
        Fields.optionalBoolean(body, "finalizing", "finalizing", hook == Hook.FINALIZE);
    if (finalizing) {
      FinalizeCall.requireReasonForComposite(controller, parent);
    }
    HookVersion version = HookVersion.of(controller, finalizing);
    String namespace = parent.path("metadata").path("namespace").asText("");
    return new CompositeRequest(
        controller,
        parent,
        ObjectMap.readOwned(body.get("children"), "children", version, namespace),
        ObjectMap.readRelated(body.get("related"), "related", version, namespace),
        finalizing,
        version);
  }

  public String name() {
    return parent.path("metadata").path("name").asText();
  }

  /** The parent's namespace, "" for a cluster-scoped parent. */
  public String namespace() {
    return parent.path("metadata").path("namespace").asText("");
  }

  /** An observed child in the parent's namespace. */
  public Optional<ObjectNode> child(String apiVersion, String kind, String name) {
    return children.get(apiVersion, kind, namespace(), name);
  }
}
