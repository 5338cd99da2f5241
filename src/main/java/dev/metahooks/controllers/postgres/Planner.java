package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.children.backup.WalArchive;
import dev.metahooks.controllers.postgres.children.jobs.UsersJobs;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.children.standby.StandbyEnv;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.Members;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.plan.ArchiveScope;
import dev.metahooks.controllers.postgres.plan.BackupJobs;
import dev.metahooks.controllers.postgres.plan.BootstrapChecks;
import dev.metahooks.controllers.postgres.plan.ChangeChecks;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.Credentials;
import dev.metahooks.controllers.postgres.plan.FinalBackups;
import dev.metahooks.controllers.postgres.plan.JobChoice;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.Mode;
import dev.metahooks.controllers.postgres.plan.ParameterPatch;
import dev.metahooks.controllers.postgres.plan.PatroniSettings;
import dev.metahooks.controllers.postgres.plan.PrefixClaims;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.plan.ScaleDown;
import dev.metahooks.controllers.postgres.plan.SecretGrants;
import dev.metahooks.controllers.postgres.plan.SourceArchives;
import dev.metahooks.controllers.postgres.plan.StandbyCredentials;
import dev.metahooks.controllers.postgres.plan.StandbyPhase;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.plan.VolumeGrowth;
import dev.metahooks.controllers.postgres.plan.WalVolumeChecks;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.status.BackupStatus;
import dev.metahooks.kube.FieldProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Decides, once per call, everything the children and the status follow ({@link ClusterPlan}): the mode, the TLS
 * state, Patroni's bootstrap settings, the Secrets, the Jobs asked for, whether the pod template changes and the
 * rollout's step. Reads the spec, the observed cluster and the clock; renders nothing but the pod template it
 * compares with the one last applied.
 */
final class Planner {
  private Planner() {}

  /** The plan of a sync call. */
  static ClusterPlan sync(
      CompositeRequest request,
      SpecReader.Result read,
      ObservedCluster observed,
      Sources sources,
      ArchiveScope archives) {
    String cluster = observed.name();
    String namespace = request.namespace();
    Instant now = sources.now();
    // A standby writes nothing of its own, and archives nothing, until its promotion has completed.
    StandbyPhase standby = StandbyPhase.of(read.spec(), observed);
    ClusterSpec wanted = standby.readOnly() ? read.spec().withoutOwnBackups() : read.spec();
    // Every reason the spec cannot be taken now, and the volume growth it asks for.
    Checked checked = check(request, read, wanted, observed, archives);
    // What the TLS Secret is, and whether anything is rendered from the spec at all.
    Tls.State tls = Tls.check(wanted.tls(), observed, now);
    Mode mode =
        wanted.paused()
            ? new Mode.Paused()
            : checked.problems().isEmpty()
                ? new Mode.Rendered()
                : new Mode.Invalid(checked.problems());
    if (!mode.rendered()) {
      return frozen(
          cluster, namespace, wanted, checked.problems(), mode, tls, FinalBackups.Stage.NOT_ASKED);
    }
    // Until the upgrade to the spec's major version is done, the pods render the version they run.
    ClusterSpec spec =
        wanted.withPostgresVersion(MajorUpgrade.renderedVersion(cluster, wanted, observed));
    // The pods: how they use TLS, Patroni's bootstrap settings, whether their template changes.
    Optional<Tls.Rendering> podTls = Tls.rendering(spec.tls(), tls, observed);
    ObjectNode bootstrap = PatroniSettings.bootstrap(spec.patroni(), observed);
    // What the Secrets hold: kept as applied, or created once with a new password.
    Credentials credentials =
        Credentials.decide(
            cluster, namespace, spec, observed, Secrets.wanted(cluster, spec), sources);
    boolean templateChanging =
        templateChanges(
            observed, StatefulSets.podTemplate(cluster, namespace, spec, bootstrap, podTls));
    // The step of the rollout or scale-down, then what may run beside it.
    Rollout.Plan rollout = rollout(request, spec, observed, templateChanging, now);
    Optional<ManualSwitchover.Plan> manual = manualSwitchover(request, spec, observed, rollout);
    Optional<MajorUpgrade.Plan> upgrade =
        MajorUpgrade.plan(cluster, wanted, observed, rollout, templateChanging, manual, now);
    // The users Job follows what the Secrets hold; a standby has none of its own.
    Optional<String> usersJob =
        standby.readOnly() ? Optional.empty() : UsersJobs.name(cluster, spec, credentials);
    // Called again when a maintenance window opens or the backup schedule next fires.
    Optional<Instant> callAgainAt =
        Stream.of(
                rollout.waitingFor().windowOpens(),
                BackupStatus.nextJudgement(spec, observed, now),
                upgrade.flatMap(MajorUpgrade.Plan::waitingUntil))
            .flatMap(Optional::stream)
            .min(Comparator.naturalOrder());
    ClusterPlan.Rendering rendering =
        new ClusterPlan.Rendering(
            new ClusterPlan.Pods(
                podTls,
                bootstrap,
                templateChanging,
                rollout,
                checked.volumes(),
                Members.names(cluster, spec.instances(), observed)),
            new ClusterPlan.Access(
                credentials, observed.liveClones(), observed.podMonitorsDeclared()),
            new ClusterPlan.Jobs(
                usersJob,
                ParameterPatch.of(cluster, spec, observed, standby.promotes()),
                manual,
                upgradeJobs(upgrade, observed),
                BackupJobs.of(cluster, spec, observed)));
    return new ClusterPlan(
        new ClusterPlan.Target(cluster, namespace, spec),
        new ClusterPlan.Verdict(checked.problems(), mode, tls, FinalBackups.Stage.NOT_ASKED),
        Optional.of(rendering),
        callAgainAt);
  }

  /** The problems of a sync, and the volume growth the spec asks for. */
  private record Checked(List<FieldProblem> problems, VolumeGrowth.Plan volumes) {}

  private static Checked check(
      CompositeRequest request,
      SpecReader.Result read,
      ClusterSpec wanted,
      ObservedCluster observed,
      ArchiveScope archives) {
    String cluster = observed.name();
    List<FieldProblem> problems = new ArrayList<>(read.problems());
    VolumeGrowth.Plan volumes = VolumeGrowth.Plan.none(wanted.storage().size());
    if (!read.valid()) {
      return new Checked(List.copyOf(problems), volumes);
    }
    BootstrapChecks.standby(
            wanted.standby().isPresent(), StandbyEnv.env(wanted.standby()), observed)
        .ifPresent(problems::add);
    problems.addAll(StandbyCredentials.missing(cluster, wanted, observed));
    problems.addAll(SecretGrants.check(wanted, observed));
    // The spec as given, as for the prefix claims below.
    problems.addAll(archives.check(read.spec(), request.parent(), request.namespace(), cluster));
    problems.addAll(ChangeChecks.check(wanted, observed));
    if (problems.stream().noneMatch(p -> p.field().equals("spec.storage.size"))) {
      VolumeGrowth.Decision growth = VolumeGrowth.decide(wanted, observed);
      growth.problem().ifPresent(problems::add);
      volumes = growth.plan();
    }
    problems.addAll(WalVolumeChecks.check(wanted, observed));
    BootstrapChecks.clone(WalArchive.cloneEnv(wanted.backups()), observed).ifPresent(problems::add);
    // The spec as given: a promotion must not take a prefix another cluster archives to, even
    // before it is done.
    PrefixClaims.check(request, read.spec().backups()).ifPresent(problems::add);
    problems.addAll(SourceArchives.check(request, read.spec(), observed));
    return new Checked(List.copyOf(problems), volumes);
  }

  /**
   * A scale-down that would remove the primary waits for it to move; the rollout goes on afterwards. Neither starts
   * a step while a switchover on request runs.
   */
  private static Rollout.Plan rollout(
      CompositeRequest request,
      ClusterSpec spec,
      ObservedCluster observed,
      boolean templateChanging,
      Instant now) {
    String cluster = observed.name();
    Optional<String> switchoverOnRequest =
        ManualSwitchover.runningJob(cluster, request.parent(), observed);
    return ScaleDown.primaryMove(cluster, spec, observed, switchoverOnRequest)
        .orElseGet(
            () ->
                Rollout.plan(cluster, spec, observed, templateChanging, switchoverOnRequest, now));
  }

  /**
   * A switchover on request waits for the rollout, and never runs beside a major upgrade: whichever Job exists
   * first, the other waits.
   */
  private static Optional<ManualSwitchover.Plan> manualSwitchover(
      CompositeRequest request, ClusterSpec spec, ObservedCluster observed, Rollout.Plan rollout) {
    Optional<String> busy =
        rollout.step() != Rollout.Step.Settled
            ? Optional.of("the rollout or scale-down under way")
            : MajorUpgrade.runningJob(observed).map(job -> "the major upgrade's Job " + job);
    return ManualSwitchover.plan(
        observed.name(), request.parent(), observed, busy, spec.updates().maxLagBytes());
  }

  /**
   * A major upgrade's Jobs: each rendered once, then kept as observed (a Job runs once). The upgrade Job's
   * ServiceAccount, Role and RoleBinding stay while it has not finished.
   */
  private static ClusterPlan.Upgrade upgradeJobs(
      Optional<MajorUpgrade.Plan> upgrade, ObservedCluster observed) {
    if (upgrade.isEmpty()) {
      return ClusterPlan.Upgrade.none();
    }
    Optional<JobChoice> backupJob =
        upgrade.get().backupJob().map(name -> JobChoice.of(name, observed.job(name).isPresent()));
    Optional<ObjectNode> running = upgrade.get().upgradeJob().flatMap(observed::job);
    Optional<JobChoice> job =
        upgrade.get().upgradeJob().map(name -> JobChoice.of(name, running.isPresent()));
    boolean rbacKept =
        running.filter(j -> !JobConditions.succeeded(j) && !JobConditions.failed(j)).isPresent();
    return new ClusterPlan.Upgrade(upgrade, backupJob, job, rbacKept);
  }

  /**
   * The plan of a finalize call: held while {@code deletionProtection} or {@code paused} is on, or while the final
   * backup runs or has failed; otherwise the deletion goes on.
   */
  static ClusterPlan finalize(
      CompositeRequest request, SpecReader.Result read, ObservedCluster observed, Sources sources) {
    ClusterSpec spec = read.spec();
    Optional<Mode.Blocker> held =
        spec.deletionProtection()
            ? Optional.of(Mode.Blocker.DELETION_PROTECTION)
            : spec.paused() ? Optional.of(Mode.Blocker.PAUSED) : Optional.empty();
    // A standby (or one whose promotion has not completed) has no backups of its own, so no final
    // backup either.
    ClusterSpec ownSpec =
        StandbyPhase.of(spec, observed).readOnly() ? spec.withoutOwnBackups() : spec;
    // The final backup Job reads the store's Secrets: one not given to the cluster holds the
    // deletion as an
    // invalid spec does.
    List<FieldProblem> problems = new ArrayList<>(read.problems());
    if (read.valid()) {
      problems.addAll(SecretGrants.check(ownSpec, observed));
    }
    SpecReader.Result own = new SpecReader.Result(ownSpec, List.copyOf(problems));
    FinalBackups.Stage finalBackup =
        held.isPresent()
            ? FinalBackups.Stage.NOT_ASKED
            : FinalBackups.stage(own, observed, request.parent());
    Mode mode =
        held.or(finalBackup::blocker)
            .<Mode>map(Mode.DeletionBlocked::new)
            .orElseGet(Mode.Deleting::new);
    return frozen(
        observed.name(),
        request.namespace(),
        own.spec(),
        read.problems(),
        mode,
        Tls.check(spec.tls(), observed, sources.now()),
        finalBackup);
  }

  /** A plan that renders nothing from the spec. */
  private static ClusterPlan frozen(
      String cluster,
      String namespace,
      ClusterSpec spec,
      List<FieldProblem> problems,
      Mode mode,
      Tls.State tls,
      FinalBackups.Stage finalBackup) {
    return new ClusterPlan(
        new ClusterPlan.Target(cluster, namespace, spec),
        new ClusterPlan.Verdict(List.copyOf(problems), mode, tls, finalBackup),
        Optional.empty(),
        Optional.empty());
  }

  /**
   * Whether the rendered pod template differs from the one last applied (observed objects carry server defaults,
   * so the last-applied configuration is what compares); unknown counts as unchanged.
   */
  static boolean templateChanges(ObservedCluster observed, ObjectNode template) {
    return observed
        .statefulSet()
        .flatMap(Preserved::lastApplied)
        .map(applied -> !applied.path("spec").path("template").equals(template))
        .orElse(false);
  }
}
