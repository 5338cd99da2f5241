package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.FieldProblem;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one hook call decides, once, before anything is rendered ({@code Planner}): every builder renders its
 * children whole from it, and the status is computed from it and the observed cluster.
 *
 * @param spec the spec with defaults (trustworthy only when {@code problems} is empty)
 * @param tls what the TLS Secret is; {@code podTls} how the pods use it, if at all
 * @param bootstrap Patroni's bootstrap settings for SPILO_CONFIGURATION ({@link PatroniSettings#bootstrap})
 * @param secrets the cluster's Secrets: observed ones as they were applied, new ones with generated passwords
 * @param usersJob the users Job this call asks for, if any
 * @param parameters the parameters Job this call asks for, if any
 * @param templateChanging this call changes the StatefulSet's pod template (the pods will restart)
 * @param rollout the rollout step this call takes
 * @param manualSwitchover the switchover asked for by annotation, and where it stands
 * @param finalBackup where the final backup of a deletion stands ({@code NOT_ASKED} in a sync)
 * @param callAgainAt when the hook must be called again though nothing changes (a window opens, a backup is due)
 * @param volumes the data claim template the StatefulSet is answered with, and the claims the resize Job grows
 * @param majorUpgrade where an upgrade to the spec's major version stands ({@code spec} renders the running version
 *     until it is done)
 */
public record ClusterPlan(
    String cluster,
    String namespace,
    ClusterSpec spec,
    List<FieldProblem> problems,
    Mode mode,
    Tls.State tls,
    Optional<Tls.Rendering> podTls,
    ObjectNode bootstrap,
    List<ObjectNode> secrets,
    Optional<String> usersJob,
    Optional<ParameterPatch> parameters,
    boolean templateChanging,
    Rollout.Plan rollout,
    Optional<ManualSwitchover.Plan> manualSwitchover,
    FinalBackups.Stage finalBackup,
    Optional<Instant> callAgainAt,
    VolumeGrowth.Plan volumes,
    Optional<MajorUpgrade.Plan> majorUpgrade) {

  public ClusterPlan(
      String cluster,
      String namespace,
      ClusterSpec spec,
      List<FieldProblem> problems,
      Mode mode,
      Tls.State tls,
      Optional<Tls.Rendering> podTls,
      ObjectNode bootstrap,
      List<ObjectNode> secrets,
      Optional<String> usersJob,
      Optional<ParameterPatch> parameters,
      boolean templateChanging,
      Rollout.Plan rollout,
      Optional<ManualSwitchover.Plan> manualSwitchover,
      FinalBackups.Stage finalBackup,
      Optional<Instant> callAgainAt,
      VolumeGrowth.Plan volumes) {
    this(
        cluster,
        namespace,
        spec,
        problems,
        mode,
        tls,
        podTls,
        bootstrap,
        secrets,
        usersJob,
        parameters,
        templateChanging,
        rollout,
        manualSwitchover,
        finalBackup,
        callAgainAt,
        volumes,
        Optional.empty());
  }

  /** The parameters Job's name, if one is asked for. */
  public Optional<String> parametersJob() {
    return parameters.map(ParameterPatch::job);
  }
}
