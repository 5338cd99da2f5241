package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The database pods a Role names: {@code <n>-0} up to the highest ordinal the StatefulSet may have now. That is the
 * spec's {@code instances} (a scale-up asks for the new names in the answer that asks for more replicas), and during
 * a scale-down also the count the StatefulSet still has: its {@code spec.replicas} (held while the primary moves off
 * a removed ordinal), its {@code status.replicas} (pods it has not removed yet), and every pod still observed, also
 * one being deleted (its Patroni writes its pod and the leader ConfigMap until it stops).
 */
public final class Members {
  /** An ordinal past the spec's maximum of instances is no member of this cluster's StatefulSet. */
  private static final int MOST = 16;

  private Members() {}

  public static List<String> names(String cluster, int instances, ObservedCluster observed) {
    int count = instances;
    Optional<ObjectNode> statefulSet = observed.statefulSet();
    if (statefulSet.isPresent()) {
      count = Math.max(count, statefulSet.get().path("spec").path("replicas").asInt(0));
      count = Math.max(count, statefulSet.get().path("status").path("replicas").asInt(0));
    }
    for (ObjectNode pod : observed.allPods()) {
      count = Math.max(count, ordinal(cluster, Names.of(pod)) + 1);
    }
    return IntStream.range(0, Math.min(count, MOST))
        .mapToObj(i -> Names.member(cluster, i))
        .toList();
  }

  /** The ordinal of a pod named {@code <n>-<ordinal>}, or -1. */
  private static int ordinal(String cluster, String pod) {
    String prefix = Names.statefulSet(cluster) + "-";
    if (!pod.startsWith(prefix)) {
      return -1;
    }
    String suffix = pod.substring(prefix.length());
    return suffix.matches("0|[1-9][0-9]?") ? Integer.parseInt(suffix) : -1;
  }
}
