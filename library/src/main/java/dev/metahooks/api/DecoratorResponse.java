package dev.metahooks.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to a DecoratorController sync or finalize call (docs/metacontroller.md, section 6.2). {@code labels} and
 * {@code annotations} are partial: only the listed keys change and a null value deletes the key.
 * A null {@code status} leaves the target's status as it is. {@code attachments} is the complete desired set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "labels",
  "annotations",
  "status",
  "attachments",
  "resyncAfterSeconds",
  "finalized"
})
public record DecoratorResponse(
    Map<String, String> labels,
    Map<String, String> annotations,
    ObjectNode status,
    List<ObjectNode> attachments,
    Double resyncAfterSeconds,
    Boolean finalized)
    implements HookResponse {

  public DecoratorResponse {
    // Copies that keep null values (they mean "delete this key") and the caller's order.
    labels = labels == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    annotations =
        annotations == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
    attachments = attachments == null ? null : List.copyOf(attachments);
  }

  @Override
  public int objectCount() {
    return attachments == null ? 0 : attachments.size();
  }

  public static DecoratorResponse attachments(List<ObjectNode> attachments) {
    return new DecoratorResponse(null, null, null, attachments, null, null);
  }

  public static DecoratorResponse labels(Map<String, String> labels) {
    return new DecoratorResponse(labels, null, null, null, null, null);
  }
}
