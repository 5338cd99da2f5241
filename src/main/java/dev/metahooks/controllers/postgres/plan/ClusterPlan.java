package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.FieldProblem;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one hook call decides, once, before anything is rendered ({@code Planner}): every builder renders its
 * children whole from it, and the status is computed from it and the observed cluster. A plan whose mode renders
 * nothing from the spec (paused, invalid, deleting) has no {@code rendering}: it takes no step.
 *
 * @param target the cluster and the spec it is rendered from
 * @param verdict what the spec and the cluster's state allow
 * @param rendering what a rendered answer carries, when the mode renders one
 * @param callAgainAt when the hook must be called again though nothing changes (a window opens, a backup is due)
 */
public record ClusterPlan(
    Target target, Verdict verdict, Optional<Rendering> rendering, Optional<Instant> callAgainAt) {

  /**
   * @param spec the spec with defaults (trustworthy only when the verdict has no problems); during a major upgrade,
   *     with the version the pods run until it is done
   */
  public record Target(String cluster, String namespace, ClusterSpec spec) {}

  /**
   * @param tls what the TLS Secret is
   * @param finalBackup where the final backup of a deletion stands ({@code NOT_ASKED} in a sync)
   */
  public record Verdict(
      List<FieldProblem> problems, Mode mode, Tls.State tls, FinalBackups.Stage finalBackup) {}

  /** A rendered answer's decisions: the pods, the credentials and network, the Jobs. */
  public record Rendering(Pods pods, Access access, Jobs jobs) {}

  /**
   * @param tls how the pods use the TLS Secret, if at all
   * @param bootstrap Patroni's bootstrap settings for SPILO_CONFIGURATION ({@link PatroniSettings#bootstrap})
   * @param templateChanging this call changes the StatefulSet's pod template (the pods will restart)
   * @param rollout the rollout step this call takes
   * @param volumes the data claim template the StatefulSet is answered with, and the claims the resize Job grows
   * @param members the database pods the Roles name ({@code Members})
   */
  public record Pods(
      Optional<Tls.Rendering> tls,
      ObjectNode bootstrap,
      boolean templateChanging,
      Rollout.Plan rollout,
      VolumeGrowth.Plan volumes,
      List<String> members) {}

  /**
   * @param credentials what the Secrets hold
   * @param liveClones the clusters that clone this one live, whose pods the network policy admits
   * @param podMonitorsDeclared the controller declares PodMonitors (their CRD is installed)
   */
  public record Access(
      Credentials credentials, List<String> liveClones, boolean podMonitorsDeclared) {}

  /**
   * @param users the users Job this call asks for, if any
   * @param parameters the parameters Job this call asks for, if any
   * @param manualSwitchover the switchover asked for by annotation, and where it stands
   * @param upgrade the major upgrade and its Jobs
   * @param backups the backup Jobs' names and the restore's start
   */
  public record Jobs(
      Optional<String> users,
      Optional<ParameterPatch> parameters,
      Optional<ManualSwitchover.Plan> manualSwitchover,
      Upgrade upgrade,
      BackupJobs backups) {}

  /**
   * @param plan where an upgrade to the spec's major version stands
   * @param backupJob the before-upgrade backup Job
   * @param job the upgrade Job
   * @param rbacKept the upgrade Job's ServiceAccount, Role and RoleBinding stay: it runs
   */
  public record Upgrade(
      Optional<MajorUpgrade.Plan> plan,
      Optional<JobChoice> backupJob,
      Optional<JobChoice> job,
      boolean rbacKept) {
    public static Upgrade none() {
      return new Upgrade(Optional.empty(), Optional.empty(), Optional.empty(), false);
    }
  }

  public String cluster() {
    return target.cluster();
  }

  public String namespace() {
    return target.namespace();
  }

  public ClusterSpec spec() {
    return target.spec();
  }

  public List<FieldProblem> problems() {
    return verdict.problems();
  }

  public Mode mode() {
    return verdict.mode();
  }

  public Tls.State tls() {
    return verdict.tls();
  }

  public FinalBackups.Stage finalBackup() {
    return verdict.finalBackup();
  }

  // What the status reads of the steps: a plan that renders nothing takes none.

  public Optional<String> usersJob() {
    return rendering.flatMap(r -> r.jobs().users());
  }

  /** The parameters Job's name, if one is asked for. */
  public Optional<String> parametersJob() {
    return rendering.flatMap(r -> r.jobs().parameters()).map(ParameterPatch::job);
  }

  public boolean templateChanging() {
    return rendering.map(r -> r.pods().templateChanging()).orElse(false);
  }

  public Rollout.Plan rollout() {
    return rendering.map(r -> r.pods().rollout()).orElseGet(Rollout.Plan::settled);
  }

  public Optional<ManualSwitchover.Plan> manualSwitchover() {
    return rendering.flatMap(r -> r.jobs().manualSwitchover());
  }

  public VolumeGrowth.Plan volumes() {
    return rendering
        .map(r -> r.pods().volumes())
        .orElseGet(() -> VolumeGrowth.Plan.none(spec().storage().size()));
  }

  public Optional<MajorUpgrade.Plan> majorUpgrade() {
    return rendering.flatMap(r -> r.jobs().upgrade().plan());
  }
}
