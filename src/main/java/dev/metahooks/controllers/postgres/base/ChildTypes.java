package dev.metahooks.controllers.postgres.base;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The kinds of child a cluster has, in the order answers list them. */
public final class ChildTypes {
  /** A declared child type; the order here is the order children are listed in responses. */
  public record ChildType(String apiVersion, String kind) {}

  public static final List<ChildType> ALL =
      List.of(
          new ChildType("v1", "ServiceAccount"),
          new ChildType("rbac.authorization.k8s.io/v1", "Role"),
          new ChildType("rbac.authorization.k8s.io/v1", "RoleBinding"),
          new ChildType("v1", "Secret"),
          new ChildType("v1", "Service"),
          new ChildType("apps/v1", "StatefulSet"),
          new ChildType("policy/v1", "PodDisruptionBudget"),
          new ChildType("networking.k8s.io/v1", "NetworkPolicy"),
          new ChildType("batch/v1", "Job"),
          new ChildType("v1", "ConfigMap"),
          new ChildType("apps/v1", "Deployment"),
          new ChildType("batch/v1", "CronJob"));

  /**
   * Declared only by the optional PodMonitor component (manifests/components/postgrescluster-podmonitor): its CRD
   * may be absent, so its group is read when the request carries it, and a PodMonitor rendered only then.
   */
  public static final ChildType POD_MONITOR =
      new ChildType("monitoring.coreos.com/v1", "PodMonitor");

  private ChildTypes() {}

  /**
   * The children sorted by {@link #ALL}, types declared elsewhere (a PodMonitor) last; stable: the order
   * within a type is kept.
   */
  public static List<ObjectNode> inTypeOrder(List<ObjectNode> children) {
    List<String> order = ALL.stream().map(t -> t.apiVersion() + " " + t.kind()).toList();
    List<ObjectNode> sorted = new ArrayList<>(children);
    sorted.sort(
        Comparator.comparingInt(
            c -> {
              int index =
                  order.indexOf(c.path("apiVersion").asText() + " " + c.path("kind").asText());
              return index < 0 ? order.size() : index;
            }));
    return sorted;
  }
}
