package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.access.PoolerAccess;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.FinalBackups;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.Mode;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.FieldProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The parent's status, computed from observed state only: the observed StatefulSet, pods, Services and users
 * Job, the spec, and the parent's previous status (for condition transition times, and so that "Provisioning"
 * and "Scaling" last until every instance is ready instead of flickering). The same observed state always gives
 * the same status.
 */
public final class ClusterStatus {
  public enum Phase {
    Provisioning,
    Ready,
    Scaling,
    Updating,
    Degraded,
    Paused,
    Hibernating,
    Hibernated,
    Invalid,
    Deleting
  }

  /** What the status depends on: the call's plan, the observed cluster and the parent (its previous status). */
  private record Input(ClusterPlan plan, ObservedCluster observed, JsonNode parent) {
    public ClusterSpec spec() {
      return plan.spec();
    }

    public List<FieldProblem> problems() {
      return plan.problems();
    }

    public Mode mode() {
      return plan.mode();
    }

    public boolean rendered() {
      return plan.mode().rendered();
    }

    public Optional<String> usersJob() {
      return plan.usersJob();
    }

    public boolean templateChanging() {
      return plan.templateChanging();
    }

    public Rollout.Plan rollout() {
      return plan.rollout();
    }
  }

  private ClusterStatus() {}

  public static ObjectNode compute(
      ClusterPlan plan, ObservedCluster observed, JsonNode parent, Instant now) {
    Input in = new Input(plan, observed, parent);
    Phase phase = phase(in);
    ObjectNode status = Json.object().put("phase", phase.name());
    status.put("instances", observed.livePods().size());
    status.put("readyInstances", observed.readyPods());
    observed.primary().ifPresent(primary -> status.put("primary", primary));
    observed
        .deployedVersion()
        .filter(v -> v.matches("[0-9]{1,3}"))
        .ifPresent(version -> status.put("postgresVersion", Integer.parseInt(version)));
    observed.deployedImage().ifPresent(image -> status.put("image", image));
    status.put("selector", Labels.podSelectorText(observed.name()));
    // Also what tells the next call that this request was answered (the hook never edits the
    // cluster).
    plan.manualSwitchover()
        .ifPresent(
            manual ->
                status
                    .putObject("switchover")
                    .put("request", manual.request())
                    .put("state", manual.state().name())
                    .put("message", manual.message()));
    if (rolloutActive(in)) {
      ObjectNode rollout =
          status
              .putObject("rollout")
              .put("step", in.rollout().step().name())
              .put("message", in.rollout().message());
      in.rollout()
          .waitingFor()
          .windowOpens()
          .ifPresent(opens -> rollout.put("waitingUntil", opens.toString()));
      in.rollout()
          .waitingFor()
          .replica()
          .ifPresent(
              lag -> {
                ObjectNode waiting =
                    rollout
                        .putObject("waitingFor")
                        .put("member", lag.member())
                        .put("leader", lag.leader());
                lag.bytes().ifPresent(bytes -> waiting.put("lagBytes", bytes));
              });
    }
    List<String> pendingRestart = observed.pendingRestart();
    if (!pendingRestart.isEmpty()) {
      pendingRestart.forEach(status.putArray("pendingRestart")::add);
    }
    VolumeResizeStatus.render(plan, observed)
        .ifPresent(resize -> status.set("volumeResize", resize));
    ObjectNode endpoints = Json.object();
    String port = ":" + Spilo.POSTGRES_PORT;
    observed
        .service(Names.primaryService(observed.name()))
        .ifPresent(
            s ->
                endpoints.put(
                    "primary",
                    Names.serviceHost(Names.primaryService(observed.name()), observed.namespace())
                        + port));
    observed
        .service(Names.replicaService(observed.name()))
        .ifPresent(
            s ->
                endpoints.put(
                    "replicas",
                    Names.serviceHost(Names.replicaService(observed.name()), observed.namespace())
                        + port));
    observed
        .service(Names.pooler(observed.name()))
        .ifPresent(
            s ->
                endpoints.put(
                    "pooler",
                    Names.serviceHost(Names.pooler(observed.name()), observed.namespace())
                        + ":"
                        + PoolerAccess.PORT));
    if (!endpoints.isEmpty()) {
      status.set("endpoints", endpoints);
    }
    if (in.problems().isEmpty()) {
      DatabaseStatus.render(in.spec().databases(), usersJobStatus(in))
          .ifPresent(list -> status.set("databases", list));
    }
    List<Conditions.Condition> conditions = conditions(in, phase, now);
    if (in.problems().isEmpty()) {
      BackupStatus.render(in.spec(), observed).ifPresent(backup -> status.set("backup", backup));
      BackupStatus.healthy(in.spec(), observed, now).ifPresent(conditions::add);
      in.spec()
          .backups()
          .backup()
          .ifPresent(
              backup ->
                  conditions.add(PhysicalBackupStatus.continuousArchiving(backup, observed, now)));
    }
    StandbyStatus.render(in.spec(), observed, in.rendered())
        .ifPresent(standby -> status.set("standby", standby));
    MajorUpgradeStatus.add(plan.majorUpgrade(), status, conditions);
    status.set("conditions", Conditions.render(conditions, in.parent(), now));
    JsonNode generation = in.parent().path("metadata").path("generation");
    if (generation.isIntegralNumber()) {
      status.set("observedGeneration", generation);
    }
    return status;
  }

  private static Phase phase(Input in) {
    Mode mode = in.mode();
    if (mode instanceof Mode.Deleting || mode instanceof Mode.DeletionBlocked) {
      return Phase.Deleting;
    }
    if (mode instanceof Mode.Paused) {
      return Phase.Paused;
    }
    return mode instanceof Mode.Invalid ? Phase.Invalid : livePhase(in);
  }

  private static Phase livePhase(Input in) {
    ObservedCluster observed = in.observed();
    int desired = in.spec().instances();
    Optional<ObjectNode> sts = observed.statefulSet();
    if (desired == 0) {
      return hibernated(observed) ? Phase.Hibernated : Phase.Hibernating;
    }
    if (sts.isEmpty()) {
      return Phase.Provisioning;
    }
    if (rolloutActive(in) && !health(in).degraded()) {
      return Phase.Updating;
    }
    if (allReady(observed, desired)) {
      return Phase.Ready;
    }
    if (provisioning(in)) {
      return Phase.Provisioning;
    }
    if (health(in).degraded()) {
      return Phase.Degraded;
    }
    return rolling(sts.get()) || in.templateChanging() ? Phase.Updating : Phase.Scaling;
  }

  /** This answer is a step of a partition-stepped rollout that has not finished. */
  private static boolean rolloutActive(Input in) {
    return in.rendered() && in.rollout().step() != Rollout.Step.Settled;
  }

  /** No pod left, and the StatefulSet (if any) asks for none. */
  private static boolean hibernated(ObservedCluster observed) {
    return observed.allPods().isEmpty()
        && observed.statefulSet().map(s -> specReplicas(s) == 0).orElse(true);
  }

  /**
   * The cluster starts, being created or waking from hibernation, and not every instance has been ready since:
   * no primary is expected yet.
   */
  private static boolean provisioning(Input in) {
    String previous = in.parent().path("status").path("phase").asText("");
    return (previous.isEmpty()
            || previous.equals(Phase.Provisioning.name())
            || previous.equals(Phase.Hibernated.name())
            || previous.equals(Phase.Hibernating.name()))
        && !allReady(in.observed(), target(in));
  }

  /** The instances the StatefulSet should run: the spec's when rendered, else what the StatefulSet asks for. */
  private static int target(Input in) {
    return in.rendered()
        ? in.spec().instances()
        : in.observed().statefulSet().map(ClusterStatus::specReplicas).orElse(0);
  }

  /** Observed health, whatever the phase: a missing primary, or instances missing that nothing planned explains. */
  public record Health(boolean degraded, String reason, String message) {}

  private static Health health(Input in) {
    ObservedCluster observed = in.observed();
    int target = target(in);
    Optional<ObjectNode> sts = observed.statefulSet();
    if (sts.isEmpty() || target == 0) {
      return new Health(
          false, "NoInstances", "no instance is asked for or there is no StatefulSet");
    }
    if (provisioning(in)) {
      return new Health(
          false,
          "Provisioning",
          observed.readyPods() + " of " + target + " instances ready, starting");
    }
    if (observed.primary().isEmpty()) {
      // Kubernetes' own rolling restart (the restart method) deletes the primary's pod too: until
      // Patroni has elected a replica, which takes it a loop or two, no pod is primary, as planned.
      return rolling(sts.get())
          ? new Health(
              false,
              "Planned",
              "no pod is labelled primary while the StatefulSet restarts pods for a new template:"
                  + " Patroni elects one of the replicas")
          : new Health(
              true,
              "NoPrimary",
              "no pod is labelled primary: writes fail until Patroni elects one");
    }
    int ready = observed.readyPods();
    if (ready >= target) {
      return new Health(
          false,
          "AsExpected",
          ready + " of " + target + " instances ready, primary " + observed.primary().get());
    }
    // A pod still starting after a scale or a restart the cluster asked for counts as planned until
    // it is ready.
    String previous = in.parent().path("status").path("phase").asText("");
    boolean planned =
        rolling(sts.get())
            || rolloutActive(in)
            || (in.rendered() && in.templateChanging())
            || !countsSettled(observed, target)
            || previous.equals(Phase.Scaling.name())
            || previous.equals(Phase.Updating.name());
    if (planned) {
      return new Health(
          false,
          "Planned",
          ready
              + " of "
              + target
              + " instances ready while the StatefulSet "
              + (rolling(sts.get()) || in.templateChanging()
                  ? "restarts pods for a new template"
                  : "scales"));
    }
    return new Health(true, "InstancesNotReady", ready + " of " + target + " instances ready");
  }

  /** A primary, and every desired instance present and ready. */
  private static boolean allReady(ObservedCluster observed, int desired) {
    return desired > 0
        && observed.primary().isPresent()
        && observed.readyPods() == desired
        && countsSettled(observed, desired);
  }

  /** The StatefulSet asks for and has the desired number of pods, and exactly that many exist. */
  private static boolean countsSettled(ObservedCluster observed, int desired) {
    return observed
            .statefulSet()
            .map(
                sts ->
                    specReplicas(sts) == desired
                        && sts.path("status").path("replicas").asInt(0) == desired)
            .orElse(false)
        && observed.allPods().size() == desired;
  }

  private static int specReplicas(JsonNode sts) {
    return sts.path("spec").path("replicas").asInt(1);
  }

  /** The StatefulSet controller has not yet rolled the current pod template out to every pod. */
  private static boolean rolling(JsonNode sts) {
    JsonNode status = sts.path("status");
    long generation = sts.path("metadata").path("generation").asLong(0);
    if (status.path("observedGeneration").asLong(generation) < generation) {
      return true;
    }
    // Under OnDelete Kubernetes never moves currentRevision (stateful_set_control.go,
    // completeRollingUpdate): the
    // updated count alone tells.
    if ("OnDelete".equals(sts.path("spec").path("updateStrategy").path("type").asText())) {
      return status.has("updatedReplicas")
              && status.path("updatedReplicas").asInt() < status.path("replicas").asInt()
          || !status.has("updatedReplicas") && status.path("replicas").asInt() > 0;
    }
    String current = status.path("currentRevision").asText("");
    String update = status.path("updateRevision").asText("");
    if (!current.isEmpty() && !update.isEmpty() && !current.equals(update)) {
      return true;
    }
    return status.has("updatedReplicas")
        && status.path("updatedReplicas").asInt() < status.path("replicas").asInt();
  }

  /** The users Job this answer asks for; when the hook renders nothing (paused, invalid), the observed one. */
  private static Optional<JsonNode> usersJobStatus(Input in) {
    return jobStatus(in, in.usersJob(), Names.USERS_COMPONENT);
  }

  /** The named Job's status when rendered; when the hook renders nothing, that of the observed Job of the component. */
  private static Optional<JsonNode> jobStatus(
      Input in, Optional<String> rendered, String component) {
    Optional<ObjectNode> job =
        in.rendered()
            ? rendered.flatMap(name -> in.observed().job(name))
            : in.observed().children("batch/v1", "Job").stream()
                .filter(
                    j ->
                        component.equals(
                            j.path("metadata").path("labels").path(Labels.COMPONENT).asText()))
                .findFirst();
    return job.map(j -> j.path("status"));
  }

  private static boolean usersJobRunning(Input in) {
    return in.usersJob().isPresent()
        && usersJobStatus(in)
            .map(s -> !JobConditions.has(s, "Complete") && !JobConditions.has(s, "Failed"))
            .orElse(true);
  }

  // --- conditions ---

  private static List<Conditions.Condition> conditions(Input in, Phase phase, Instant now) {
    List<Conditions.Condition> conditions = new ArrayList<>();
    conditions.add(ready(in));
    conditions.add(progressing(in, phase));
    conditions.add(degraded(in));
    conditions.add(usersReady(in));
    conditions.add(configurationApplied(in));
    conditions.add(specValid(in));
    conditions.add(deletionBlocked(in));
    if (in.rendered()) {
      ComponentConditions.exporter(in.spec(), in.observed()).ifPresent(conditions::add);
      ComponentConditions.pooler(in.spec(), in.observed()).ifPresent(conditions::add);
    }
    in.spec().tls().ifPresent(tls -> conditions.add(ComponentConditions.tls(in.plan().tls())));
    return conditions;
  }

  /** Ready: a primary and every instance the StatefulSet should run is ready; observed, whatever the phase. */
  private static Conditions.Condition ready(Input in) {
    ObservedCluster observed = in.observed();
    int target =
        in.rendered()
            ? in.spec().instances()
            : observed.statefulSet().map(ClusterStatus::specReplicas).orElse(0);
    String counts = observed.readyPods() + " of " + target + " instances ready";
    if (observed.statefulSet().isEmpty() && !in.rendered()) {
      return new Conditions.Condition(
          Conditions.READY, false, "NotCreated", "there is no StatefulSet");
    }
    if (target == 0) {
      return hibernated(observed)
          ? new Conditions.Condition(
              Conditions.READY, false, "Hibernated", "no instances are asked for; volumes are kept")
          : new Conditions.Condition(
              Conditions.READY,
              false,
              "Hibernating",
              observed.allPods().size() + " pods still stopping; volumes are kept");
    }
    if (observed.primary().isEmpty()) {
      return new Conditions.Condition(
          Conditions.READY, false, "NoPrimary", counts + ", no primary");
    }
    if (!allReady(observed, target)) {
      return new Conditions.Condition(
          Conditions.READY,
          false,
          "InstancesNotReady",
          counts + ", primary " + observed.primary().get());
    }
    return new Conditions.Condition(
        Conditions.READY,
        true,
        "AllInstancesReady",
        counts + ", primary " + observed.primary().get());
  }

  private static Conditions.Condition progressing(Input in, Phase phase) {
    Mode mode = in.mode();
    if (mode instanceof Mode.Paused) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, false, "Paused", "spec.paused is true: children are frozen");
    }
    if (mode instanceof Mode.Invalid) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          false,
          "InvalidSpec",
          "children are frozen until the spec is valid");
    }
    if (mode instanceof Mode.DeletionBlocked) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, false, "DeletionBlocked", "deletion is blocked");
    }
    if (mode instanceof Mode.Deleting) {
      ObservedCluster observed = in.observed();
      String step =
          observed.statefulSet().isPresent() || !observed.allPods().isEmpty()
              ? "deleting the children; " + observed.allPods().size() + " pods left"
              : observed.patroniConfigMaps().isEmpty()
                  ? "every child and Patroni's ConfigMaps are gone"
                  : "removing Patroni's ConfigMaps "
                      + String.join(", ", observed.patroniConfigMaps());
      return new Conditions.Condition(Conditions.PROGRESSING, true, "Deleting", step);
    }
    ObservedCluster observed = in.observed();
    int desired = in.spec().instances();
    Optional<ObjectNode> sts = observed.statefulSet();
    if (sts.isEmpty()) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, true, "Creating", "creating the StatefulSet");
    }
    if (rolloutActive(in) && in.rollout().step() == Rollout.Step.SwitchoverFailed) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, false, "SwitchoverFailed", in.rollout().message());
    }
    if (rolloutActive(in) && in.rollout().step() == Rollout.Step.RestartFailed) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, false, "RestartFailed", in.rollout().message());
    }
    if (rolloutActive(in) && in.rollout().heldReplicas().isPresent()) {
      // A request's Job that runs is what holds it: ScaleDown.primaryMove waits for one before
      // anything else, and no
      // request starts while a scale-down holds (the Planner's "busy").
      boolean forRequest =
          in.plan()
              .manualSwitchover()
              .filter(s -> s.state() == ManualSwitchover.State.Running)
              .isPresent();
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          forRequest ? "WaitingForSwitchoverBeforeScaleDown" : "MovingPrimaryBeforeScaleDown",
          in.rollout().message());
    }
    if (rolloutActive(in) && in.rollout().step() == Rollout.Step.WaitingForWindow) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, true, "WaitingForMaintenanceWindow", in.rollout().message());
    }
    if (rolloutActive(in)) {
      return new Conditions.Condition(
          Conditions.PROGRESSING, true, "RollingUpdate", in.rollout().message());
    }
    if (phase == Phase.Hibernating) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "Hibernating",
          observed.allPods().size() + " pods still stopping; volumes are kept");
    }
    if (rolling(sts.get())) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "RollingUpdate",
          "the StatefulSet is rolling out a new pod template");
    }
    // Not settled while this very answer changes the template: the roll has not shown in the
    // StatefulSet yet.
    if (in.templateChanging()) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "RollingUpdate",
          "the pod template changes: the StatefulSet will restart the pods one by one");
    }
    if (!countsSettled(observed, desired)) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "Scaling",
          observed.allPods().size() + " pods, " + desired + " asked for");
    }
    if (usersJobRunning(in)) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "ApplyingUsers",
          "Job " + in.usersJob().get() + " has not completed");
    }
    if ((phase == Phase.Provisioning || phase == Phase.Scaling || phase == Phase.Updating)
        && desired > 0) {
      return new Conditions.Condition(
          Conditions.PROGRESSING,
          true,
          "WaitingForInstances",
          observed.readyPods() + " of " + desired + " instances ready");
    }
    return new Conditions.Condition(
        Conditions.PROGRESSING, false, "Settled", "the children match the spec");
  }

  private static Conditions.Condition degraded(Input in) {
    Health health = health(in);
    return new Conditions.Condition(
        Conditions.DEGRADED, health.degraded(), health.reason(), health.message());
  }

  /** UsersReady: the users Job has applied the users spec; its failure is its own, not the cluster's health. */
  private static Conditions.Condition usersReady(Input in) {
    Optional<JsonNode> job = usersJobStatus(in);
    if (in.spec().users().isEmpty() && (in.rendered() ? in.usersJob().isEmpty() : job.isEmpty())) {
      return new Conditions.Condition(
          Conditions.USERS_READY, true, "NoUsers", "spec.users is empty");
    }
    if (job.isEmpty()) {
      return new Conditions.Condition(
          Conditions.USERS_READY,
          false,
          "NotApplied",
          in.spec().instances() == 0
              ? "users are applied while instances run"
              : in.spec().standby().isPresent()
                  ? "a standby's roles are its source's: the users Job runs once the "
                      + "cluster is promoted"
                  : "the users Job has not started");
    }
    if (JobConditions.has(job.get(), "Failed")) {
      return new Conditions.Condition(
          Conditions.USERS_READY,
          false,
          "JobFailed",
          "Job "
              + in.usersJob().orElse("")
              + " failed: its pod's log says why; delete the Job to run it again");
    }
    if (JobConditions.has(job.get(), "Complete")) {
      return new Conditions.Condition(
          Conditions.USERS_READY, true, "Applied", "the users Job has completed");
    }
    return new Conditions.Condition(
        Conditions.USERS_READY, false, "Applying", "the users Job is running");
  }

  /**
   * ConfigurationApplied: the parameters Job has written the settings into Patroni's configuration and read each
   * reloadable one back on every member; the settings that need a restart, or that Spilo pins in Patroni's local
   * configuration, arrive with the pod template, so the condition also waits for every pod to run it. A failed
   * Job changes nothing else: the pods keep running with the settings they have.
   */
  private static Conditions.Condition configurationApplied(Input in) {
    Optional<JsonNode> job = jobStatus(in, in.plan().parametersJob(), ParameterJobs.COMPONENT);
    String name = in.plan().parametersJob().orElse("");
    if (job.isEmpty()) {
      return new Conditions.Condition(
          Conditions.CONFIGURATION_APPLIED,
          false,
          "NotApplied",
          in.spec().instances() == 0
              ? "the configuration is applied while instances run"
              : "the parameters Job has not started");
    }
    if (JobConditions.has(job.get(), "Failed")) {
      return new Conditions.Condition(
          Conditions.CONFIGURATION_APPLIED,
          false,
          "JobFailed",
          "Job "
              + name
              + " could not write Patroni's configuration (PATCH /config), or a member does not run a setting it sent: "
              + "its pod's log has Patroni's answer and each member's value; nothing else is changed or restarted; fix "
              + "the spec or delete the Job to try again");
    }
    List<String> waiting = restartsToTakeTheSettings(in);
    if (JobConditions.has(job.get(), "Complete") && !waiting.isEmpty()) {
      return new Conditions.Condition(
          Conditions.CONFIGURATION_APPLIED,
          false,
          "RollingOut",
          "the reloadable "
              + "settings run on every member; "
              + String.join(", ", waiting)
              + " must restart to run the settings that "
              + "need a restart or that Spilo pins locally (status.rollout)");
    }
    if (JobConditions.has(job.get(), "Complete")) {
      return new Conditions.Condition(
          Conditions.CONFIGURATION_APPLIED,
          true,
          "Applied",
          "every member runs the spec's parameters (the parameters Job read them back on each) and Patroni's "
              + "configuration has the availability settings");
    }
    return new Conditions.Condition(
        Conditions.CONFIGURATION_APPLIED, false, "Applying", "the parameters Job is running");
  }

  /**
   * The pods not started with the spec's local settings (what SPILO_CONFIGURATION carries: {@link
   * StatefulSets#spiloConfiguration}), and those Patroni reports pending a restart, by name.
   */
  private static List<String> restartsToTakeTheSettings(Input in) {
    Set<String> pods =
        new TreeSet<>(
            in.observed().podsStartedWithout(StatefulSets.localParameters(in.spec().parameters())));
    pods.addAll(in.observed().pendingRestart());
    return List.copyOf(pods);
  }

  private static Conditions.Condition specValid(Input in) {
    if (in.problems().isEmpty()) {
      return new Conditions.Condition(Conditions.SPEC_VALID, true, "Valid", "the spec is valid");
    }
    return new Conditions.Condition(
        Conditions.SPEC_VALID,
        false,
        "InvalidSpec",
        in.problems().stream().map(FieldProblem::toString).collect(Collectors.joining("; ")));
  }

  private static Conditions.Condition deletionBlocked(Input in) {
    if (in.mode() instanceof Mode.DeletionBlocked blocked) {
      Mode.Blocker blocker = blocked.blocker();
      return new Conditions.Condition(
          Conditions.DELETION_BLOCKED,
          true,
          blocker.reason(),
          switch (blocker) {
            case DELETION_PROTECTION ->
                "spec.deletionProtection is true: set it to false to let the deletion finish";
            case PAUSED -> "spec.paused is true: unpause to let the deletion finish";
            default -> FinalBackups.blockedMessage(blocker, in.observed(), in.parent());
          });
    }
    if (in.mode() instanceof Mode.Deleting
        && in.plan().finalBackup() == FinalBackups.Stage.SKIPPED) {
      return new Conditions.Condition(
          Conditions.DELETION_BLOCKED,
          false,
          "FinalBackupSkipped",
          "deleted without a "
              + "final backup: annotation "
              + FinalBackups.SKIP_ANNOTATION
              + " equals this cluster's uid; nothing of this "
              + "deletion is in the store");
    }
    if (in.mode() instanceof Mode.Deleting) {
      return new Conditions.Condition(
          Conditions.DELETION_BLOCKED, false, "Deleting", "nothing blocks the deletion");
    }
    return new Conditions.Condition(
        Conditions.DELETION_BLOCKED, false, "NotDeleting", "the cluster is not being deleted");
  }
}
