package dev.metahooks.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The answer to a CompositeController sync or finalize call (docs/metacontroller.md, section 5.2). {@code children} is the
 * complete desired set, in the order given (for rolling updates that order is the rollout order); absent
 * optional fields are left out of the JSON, which v2's strict decoding requires.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"status", "children", "resyncAfterSeconds", "finalized"})
public record CompositeResponse(
    ObjectNode status, List<ObjectNode> children, Double resyncAfterSeconds, Boolean finalized)
    implements HookResponse {

  public CompositeResponse {
    children = children == null ? List.of() : List.copyOf(children);
  }

  @Override
  public int objectCount() {
    return children.size();
  }

  public static CompositeResponse of(ObjectNode status, List<ObjectNode> children) {
    return new CompositeResponse(status, children, null, null);
  }

  public CompositeResponse withFinalized(boolean done) {
    return new CompositeResponse(status, children, resyncAfterSeconds, done);
  }

  public CompositeResponse withResyncAfterSeconds(double seconds) {
    return new CompositeResponse(status, children, seconds, finalized);
  }
}
