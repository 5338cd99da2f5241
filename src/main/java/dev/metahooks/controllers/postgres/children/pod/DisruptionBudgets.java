package dev.metahooks.controllers.postgres.children.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.Optional;

/** PodDisruptionBudget {@code <n>}: at most one database pod evicted at a time, when there is more than one. */
public final class DisruptionBudgets {
  private DisruptionBudgets() {}

  public static Optional<ObjectNode> build(String cluster, ClusterSpec spec) {
    if (!spec.wantsDisruptionBudget()) {
      return Optional.empty();
    }
    ObjectNode budget =
        Json.object().put("apiVersion", "policy/v1").put("kind", "PodDisruptionBudget");
    budget
        .putObject("metadata")
        .put("name", Names.disruptionBudget(cluster))
        .set("labels", Labels.child(cluster, "database"));
    // AlwaysAllow: a pod that is not ready (crash-looping, stuck) never blocks draining its node.
    ObjectNode budgetSpec =
        budget
            .putObject("spec")
            .put("maxUnavailable", 1)
            .put("unhealthyPodEvictionPolicy", "AlwaysAllow");
    budgetSpec.putObject("selector").set("matchLabels", Labels.podSelector(cluster));
    return Optional.of(budget);
  }
}
