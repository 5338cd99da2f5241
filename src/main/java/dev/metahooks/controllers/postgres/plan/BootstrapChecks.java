package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.kube.FieldProblem;
import java.util.List;
import java.util.Optional;

/**
 * What Spilo reads only once, when the first pod initialises the cluster: a change to it after the StatefulSet
 * exists is refused instead of rolling pods for nothing. Each check compares the variables the spec renders (given
 * by the planner) with those of the observed StatefulSet.
 */
public final class BootstrapChecks {
  /** The prefix of Spilo's clone variables. */
  public static final String CLONE_PREFIX = "CLONE_";

  private BootstrapChecks() {}

  /**
   * {@code spec.bootstrap.clone}: a changed, added or removed clone is refused (create a new cluster to clone
   * again). The observed variables are read as observed.
   */
  public static Optional<FieldProblem> clone(
      List<? extends JsonNode> rendered, ObservedCluster observed) {
    if (observed.statefulSet().isEmpty()
        || rendered.equals(observed.observedSpiloEnv(CLONE_PREFIX))) {
      return Optional.empty();
    }
    return Optional.of(
        new FieldProblem(
            "spec.bootstrap.clone",
            "cannot change after the cluster was first "
                + "bootstrapped: it is only read when the cluster is created (create a new cluster to clone again)"));
  }

  /**
   * {@code spec.standby}: {@code standby_cluster} is in Patroni's bootstrap configuration, read once when the cluster
   * is created, so once the StatefulSet exists adding {@code spec.standby} or changing it is refused. Removing it is
   * the promotion ({@link StandbyPhase}). The observed variables are read as last applied.
   */
  public static Optional<FieldProblem> standby(
      boolean standbyWanted, List<? extends JsonNode> rendered, ObservedCluster observed) {
    if (observed.statefulSet().isEmpty() || !standbyWanted) {
      return Optional.empty();
    }
    List<JsonNode> deployed = observed.appliedSpiloEnv(StandbyPhase.ENV_PREFIX);
    if (rendered.equals(deployed)) {
      return Optional.empty();
    }
    return Optional.of(
        new FieldProblem(
            "spec.standby",
            deployed.isEmpty()
                ? "can only be set when the cluster is created: a running cluster does not become a standby (create a new "
                    + "cluster with spec.standby)"
                : "cannot change while the cluster follows its source: Patroni read it when the cluster was created; remove "
                    + "spec.standby to promote the cluster"));
  }
}
