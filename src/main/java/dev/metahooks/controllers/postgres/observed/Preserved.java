package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.List;
import java.util.Optional;

/**
 * Re-emits an observed child so that Metacontroller changes nothing: used for Secrets (a password is never
 * regenerated), and for every child while the cluster is paused, its spec invalid, or its deletion blocked.
 *
 * <p>Echoing the observed object verbatim would be harmful: Metacontroller's apply stores what we return as the
 * child's last-applied configuration, so {@code status}, {@code managedFields}, {@code resourceVersion} and every
 * server default would become "ours" (and be removed from the child once we stop returning them), and with
 * server-side apply we would force-own all of them. What Metacontroller last applied for us is exactly the
 * annotation {@value #LAST_APPLIED}: returning it leaves the 3-way merge with nothing to do. Without that
 * annotation (server-side-apply mode, or a child created by someone else and adopted) the observed object is
 * returned without its status and without the metadata the API server and Metacontroller write.
 */
public final class Preserved {
  public static final String LAST_APPLIED = "metacontroller.k8s.io/last-applied-configuration";
  private static final List<String> SERVER_METADATA =
      List.of(
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "managedFields",
          "selfLink",
          "ownerReferences",
          "finalizers");

  private Preserved() {}

  public static List<ObjectNode> all(List<ObjectNode> observed) {
    return observed.stream().map(Preserved::child).toList();
  }

  public static ObjectNode child(ObjectNode observed) {
    return lastApplied(observed).orElseGet(() -> stripped(observed));
  }

  /** The last-applied configuration, if it is a readable object with the observed identity. */
  public static Optional<ObjectNode> lastApplied(ObjectNode observed) {
    JsonNode text = observed.path("metadata").path("annotations").path(LAST_APPLIED);
    if (!text.isTextual()) {
      return Optional.empty();
    }
    JsonNode applied;
    try {
      applied = Json.reader().readTree(text.asText());
    } catch (Exception e) {
      return Optional.empty();
    }
    if (applied == null
        || !applied.isObject()
        || !sameText(applied.path("apiVersion"), observed.path("apiVersion"))
        || !sameText(applied.path("kind"), observed.path("kind"))
        || !sameText(
            applied.path("metadata").path("name"), observed.path("metadata").path("name"))) {
      return Optional.empty();
    }
    return Optional.of((ObjectNode) applied);
  }

  public static ObjectNode stripped(ObjectNode observed) {
    ObjectNode copy = observed.deepCopy();
    copy.remove("status");
    if (copy.path("metadata").isObject()) {
      ObjectNode metadata = (ObjectNode) copy.get("metadata");
      metadata.remove(SERVER_METADATA);
      if (metadata.path("annotations").isObject()) {
        ObjectNode annotations = (ObjectNode) metadata.get("annotations");
        annotations.remove(LAST_APPLIED);
        if (annotations.isEmpty()) {
          metadata.remove("annotations");
        }
      }
    }
    return copy;
  }

  private static boolean sameText(JsonNode a, JsonNode b) {
    return a.isTextual() && b.isTextual() && a.asText().equals(b.asText());
  }
}
