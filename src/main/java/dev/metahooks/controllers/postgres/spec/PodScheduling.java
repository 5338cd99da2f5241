package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where one kind of the cluster's pods may run, and what else they carry: the fields of a pod spec that say so
 * (checked as the API server checks them, see {@link PodSchedulingReader}), and labels and annotations added to
 * the pod template. A topology spread constraint without {@code labelSelector} spreads the pods of its own kind:
 * the renderer fills in their selector.
 *
 * @param tolerations Kubernetes Tolerations
 * @param nodeAffinity a NodeAffinity (required and/or preferred node selector terms)
 * @param topologySpreadConstraints Kubernetes TopologySpreadConstraints
 * @param podLabels extra labels; never one of the keys the operator or Kubernetes' controllers select by
 * @param podAnnotations extra annotations; never under the operator's own prefix
 */
public record PodScheduling(
    List<ObjectNode> tolerations,
    Optional<ObjectNode> nodeAffinity,
    List<ObjectNode> topologySpreadConstraints,
    Optional<String> priorityClassName,
    Map<String, String> podLabels,
    Map<String, String> podAnnotations) {

  public static final PodScheduling NONE =
      new PodScheduling(
          List.of(), Optional.empty(), List.of(), Optional.empty(), Map.of(), Map.of());

  /**
   * {@code spec.scheduling}: one block per kind of pod; a block applies to its own pods only (the Jobs do not take
   * the database pods' tolerations, say), so each is what its pods need.
   */
  public record Scheduling(PodScheduling database, PodScheduling pooler, PodScheduling jobs) {
    public static final Scheduling NONE =
        new Scheduling(PodScheduling.NONE, PodScheduling.NONE, PodScheduling.NONE);
  }
}
