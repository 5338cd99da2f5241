package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * The API server's Priority admission plugin, as far as it refuses: a new Pod that names a PriorityClass which does
 * not exist is forbidden (kubernetes v1.36.3, plugin/pkg/admission/priority/admission.go:143-192, admitPod, and
 * :294-299, resolvePriorityClass). A workload controller then cannot start the Pod; it retries, and its status counts
 * the Pod missing. The two system classes always exist: the API server creates them at start.
 */
final class PodPriority {
  private PodPriority() {}

  /** The classes kube-apiserver bootstraps (pkg/apis/scheduling/v1/helpers.go:48, SystemPriorityClasses). */
  private static final Set<String> SYSTEM_CLASSES =
      Set.of("system-node-critical", "system-cluster-critical");

  /**
   * @throws ApiException {@code FORBIDDEN} when the Pod's {@code priorityClassName} names no PriorityClass
   */
  static void admit(Cluster cluster, ObjectNode pod) {
    String name = pod.path("spec").path("priorityClassName").asText("");
    if (name.isEmpty()
        || SYSTEM_CLASSES.contains(name)
        || cluster.exists("scheduling.k8s.io/v1", "PriorityClass", "", name)) {
      return;
    }
    throw new ApiException(
        ApiException.Reason.FORBIDDEN,
        "pods \""
            + Meta.name(pod)
            + "\" is forbidden: no PriorityClass with name "
            + name
            + " was found");
  }
}
