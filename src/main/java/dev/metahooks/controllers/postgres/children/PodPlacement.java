package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.spec.PodScheduling;

/**
 * A scheduling block of the spec ({@link PodScheduling}) put into a pod template that its builder has just made:
 * tolerations, node affinity beside the builder's own pod anti-affinity, topology spread constraints (those without
 * a selector spread the template's own pods), the priority class, and the extra labels and annotations after the
 * builder's (the spec reader refuses every key the operator or Kubernetes selects by, so none is replaced).
 */
public final class PodPlacement {
  private PodPlacement() {}

  /**
   * @param template a pod template ({@code metadata}, {@code spec})
   * @param ownPods the selector of the template's pods, for spread constraints that give none
   */
  public static void apply(ObjectNode template, PodScheduling placement, ObjectNode ownPods) {
    if (placement.equals(PodScheduling.NONE)) {
      return;
    }
    ObjectNode metadata = template.withObjectProperty("metadata");
    placement.podLabels().forEach(metadata.withObjectProperty("labels")::put);
    if (!placement.podAnnotations().isEmpty()) {
      placement.podAnnotations().forEach(metadata.withObjectProperty("annotations")::put);
    }
    ObjectNode pod = template.withObjectProperty("spec");
    placement.priorityClassName().ifPresent(name -> pod.put("priorityClassName", name));
    if (!placement.tolerations().isEmpty()) {
      ArrayNode tolerations = pod.putArray("tolerations");
      placement.tolerations().forEach(toleration -> tolerations.add(toleration.deepCopy()));
    }
    placement
        .nodeAffinity()
        .ifPresent(
            affinity ->
                pod.withObjectProperty("affinity").set("nodeAffinity", affinity.deepCopy()));
    if (!placement.topologySpreadConstraints().isEmpty()) {
      ArrayNode constraints = pod.putArray("topologySpreadConstraints");
      for (ObjectNode given : placement.topologySpreadConstraints()) {
        ObjectNode constraint = given.deepCopy();
        if (!constraint.has("labelSelector")) {
          constraint.putObject("labelSelector").set("matchLabels", ownPods.deepCopy());
        }
        constraints.add(constraint);
      }
    }
  }
}
