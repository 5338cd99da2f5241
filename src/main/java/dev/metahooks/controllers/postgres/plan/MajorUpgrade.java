package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.MaintenanceWindows;
import dev.metahooks.kube.FieldProblem;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A major upgrade in place: a {@code postgresVersion} above the one the StatefulSet runs ({@code PGVERSION}). The
 * pods keep rendering the running version until the upgrade Job {@code <n>-upgrade-<to>} has completed; the Job runs
 * Spilo's {@code inplace_upgrade.py} in the primary's container. Before it is asked for, in this order: a base backup
 * taken for this upgrade and verified ({@code <n>-upgrade-backup-<to>}, when {@code spec.backup} is set), no rollout
 * in progress, every member ready and streaming, and a maintenance window open (when windows are set). Each wait is
 * a phase. The upgrade Job never runs twice by itself: a failed one stays, with the cluster on the old version,
 * until someone deletes it.
 *
 * <p>The order differs from Zalando's postgres-operator, which renders the new {@code PGVERSION} first
 * (pkg/cluster/k8sres.go:1020 at a7aaad0a; syncStatefulSet at sync.go:106 runs before majorVersionUpgrade at
 * sync.go:169), rolls the pods, which keep running the old binaries because Spilo follows the data directory's
 * PG_VERSION (configure_spilo.py:1149-1155 at zalando/spilo 7cb50bd), and then execs the script. Here the Job passes
 * {@code PGVERSION} to the script itself (as Spilo's own test does, tests/test_spilo.sh:134) and the StatefulSet
 * moves to the new version only after the Job completed: a failed upgrade leaves the StatefulSet exactly as it was,
 * and its {@code PGVERSION} always names the version the data directory holds. The rollout that follows restarts
 * pods that already run the new version (Spilo's script rewrote Patroni's bin_dir and restarted Patroni,
 * inplace_upgrade.py:560-592).
 *
 * <p>Exit codes of the Job's script ({@code major-upgrade.sh}), which the Job's {@code podFailurePolicy} copies into
 * the Failed condition's message: {@value #NOT_UPGRADED} the data directory is still at the old version (Spilo
 * refused or rolled back), {@value #INCOMPLETE} the primary's data directory is at the new version but Spilo
 * reported an error after the switch, {@value #NO_BINARIES} the image has no binaries of the new version,
 * {@value #OTHER_VERSION} the data directory holds neither version.
 */
public final class MajorUpgrade {
  /** The version the upgrade started from, on the upgrade Job (the StatefulSet renders the new one afterwards). */
  public static final String FROM_ANNOTATION = "metahooks.dev/upgrade-from";

  public static final int NOT_UPGRADED = 10;
  public static final int INCOMPLETE = 11;
  public static final int NO_BINARIES = 12;
  public static final int OTHER_VERSION = 13;

  /**
   * The Job controller's message for a FailJob rule: "Container %s for pod %s/%s failed with exit code %v matching
   * %v rule at index %d" (kubernetes pkg/controller/job/pod_failure_policy.go, matchPodFailurePolicy).
   */
  private static final Pattern EXIT_CODE = Pattern.compile("failed with exit code (\\d+)");

  public enum Phase {
    WaitingForBackup,
    WaitingForRollout,
    WaitingForReplicas,
    WaitingForWindow,
    Upgrading,
    Succeeded,
    Incomplete,
    Failed;

    /** The cluster runs the new version (its StatefulSet renders it). */
    public boolean upgraded() {
      return this == Succeeded || this == Incomplete;
    }
  }

  /**
   * @param steps the Jobs this call asks for, and where the upgrade runs
   * @param waitingUntil when the maintenance window that the upgrade waits for opens
   */
  public record Plan(
      int from, int to, Phase phase, String message, Steps steps, Optional<Instant> waitingUntil) {
    public Optional<String> backupJob() {
      return steps.backupJob();
    }

    public Optional<String> upgradeJob() {
      return steps.upgradeJob();
    }

    public Optional<String> primary() {
      return steps.primary();
    }
  }

  /**
   * @param backupJob the before-upgrade backup Job this call asks for (kept once it exists)
   * @param upgradeJob the upgrade Job this call asks for (kept once it exists)
   * @param primary the member the upgrade Job runs on (the leader when it was asked for)
   */
  public record Steps(
      Optional<String> backupJob, Optional<String> upgradeJob, Optional<String> primary) {}

  private MajorUpgrade() {}

  /**
   * Why the spec's version cannot be taken, if it cannot ({@code deployed}: the StatefulSet's {@code PGVERSION}): a
   * decrease (pg_upgrade only goes up), an increase of a standby (it follows its source's version), or any change
   * while an upgrade Job to another version runs (the CRD refuses a decrease first; CEL may be off).
   */
  public static Optional<FieldProblem> versionChange(
      ObservedCluster observed, String deployed, ClusterSpec spec) {
    int wanted = spec.postgresVersion();
    OptionalInt running = number(deployed);
    Optional<String> busy =
        runningJobs(observed)
            .map(Names::of)
            .filter(name -> !name.equals(Names.upgradeJob(observed.name(), wanted)))
            .findFirst();
    if (busy.isPresent()) {
      return problem(
          "cannot change to " + wanted + " while the upgrade Job " + busy.get() + " runs");
    }
    if (running.isEmpty()) {
      return deployed.equals(String.valueOf(wanted))
          ? Optional.empty()
          : problem(
              "cannot change from "
                  + deployed
                  + " to "
                  + wanted
                  + ": the StatefulSet's PGVERSION is not a major "
                  + "version");
    }
    int from = running.getAsInt();
    if (wanted < from) {
      return problem(
          "cannot decrease from "
              + from
              + " to "
              + wanted
              + ": an upgrade in place only goes up (restore "
              + "a backup into a new cluster of the older version instead)");
    }
    if (wanted > from && spec.standby().isPresent()) {
      return problem(
          "cannot change from "
              + from
              + " to "
              + wanted
              + " while the cluster is a standby: it follows its "
              + "source's version (promote it first, or create it again from a source of the new version)");
    }
    return Optional.empty();
  }

  /** The upgrade Job that runs, if one does: Spilo's script works in the primary's data directory, the leader stays. */
  public static Optional<String> runningJob(ObservedCluster observed) {
    return runningJobs(observed).map(Names::of).findFirst();
  }

  private static Stream<ObjectNode> runningJobs(ObservedCluster observed) {
    return observed.children("batch/v1", "Job").stream()
        .filter(
            job ->
                fromOf(job).isPresent()
                    && !JobConditions.succeeded(job)
                    && !JobConditions.failed(job));
  }

  private static Optional<FieldProblem> problem(String message) {
    return Optional.of(new FieldProblem("spec.postgresVersion", message));
  }

  /** The major version the pods render: the running one while an upgrade to the spec's waits, runs or has failed. */
  public static int renderedVersion(String cluster, ClusterSpec spec, ObservedCluster observed) {
    OptionalInt deployed = deployed(observed);
    int to = spec.postgresVersion();
    if (deployed.isEmpty() || deployed.getAsInt() >= to) {
      return to;
    }
    return observed.job(Names.upgradeJob(cluster, to)).filter(MajorUpgrade::upgraded).isPresent()
        ? to
        : deployed.getAsInt();
  }

  /**
   * Where the upgrade to the spec's version stands, if one is asked for or its Job still exists; {@code spec} is the
   * spec as read, {@code rollout} and {@code templateChanging} this call's rollout at the rendered version,
   * {@code manual} this call's switchover on request.
   */
  public static Optional<Plan> plan(
      String cluster,
      ClusterSpec spec,
      ObservedCluster observed,
      Rollout.Plan rollout,
      boolean templateChanging,
      Optional<ManualSwitchover.Plan> manual,
      Instant now) {
    int to = spec.postgresVersion();
    String jobName = Names.upgradeJob(cluster, to);
    String backupName = Names.upgradeBackupJob(cluster, to);
    Optional<String> backupJob =
        spec.backups().backup().isPresent() || observed.job(backupName).isPresent()
            ? Optional.of(backupName)
            : Optional.empty();
    OptionalInt deployed = deployed(observed);
    Optional<ObjectNode> job = observed.job(jobName);
    if (job.isPresent()) {
      int from = fromOf(job.get()).orElse(deployed.orElse(to));
      return Optional.of(
          followJob(from, to, job.get(), backupJob.filter(name -> observed.job(name).isPresent())));
    }
    if (deployed.isEmpty() || deployed.getAsInt() >= to) {
      return Optional.empty();
    }
    int from = deployed.getAsInt();
    Wait wait = new Wait(from, to, backupJob);
    if (backupJob.isPresent()) {
      Optional<ObjectNode> backup = observed.job(backupName);
      if (backup.isEmpty()) {
        return wait.of(
            Phase.WaitingForBackup,
            "a base backup for the upgrade: Job " + backupName + " is being created");
      }
      if (JobConditions.failed(backup.get())) {
        return wait.of(
            Phase.Failed,
            "the base backup before the upgrade failed (Job "
                + backupName
                + ": see its pod's "
                + "log); the cluster stays on PostgreSQL "
                + from
                + ". Delete Job "
                + backupName
                + " to take another");
      }
      if (!JobConditions.succeeded(backup.get())) {
        return wait.of(
            Phase.WaitingForBackup,
            "the base backup for the upgrade (Job "
                + backupName
                + ") to be pushed and verified in the store");
      }
    }
    // Every pod on the current template too: under updates.method restart the rollout plan is
    // always Settled.
    if (rollout.step() != Rollout.Step.Settled
        || templateChanging
        || !observed.everyPodOnUpdateRevision()) {
      return wait.of(Phase.WaitingForRollout, "the rollout to end first: " + rollout.message());
    }
    Optional<ManualSwitchover.Plan> switching =
        manual.filter(m -> m.state() == ManualSwitchover.State.Running);
    if (switching.isPresent()) {
      return wait.of(
          Phase.WaitingForRollout,
          "the switchover asked for to end first: " + switching.get().message());
    }
    Optional<ObjectNode> leader = observed.primaryPod();
    List<ObjectNode> pods = observed.livePods();
    if (leader.isEmpty()
        || pods.size() != spec.instances()
        || observed.readyPods() != spec.instances()) {
      return wait.of(
          Phase.WaitingForReplicas,
          observed.readyPods()
              + " of "
              + spec.instances()
              + " members ready with a primary: Spilo's upgrade needs every member");
    }
    Optional<Streaming.Lag> behind =
        Streaming.firstBehind(pods, leader.get(), spec.updates().maxLagBytes());
    if (behind.isPresent()) {
      return wait.of(Phase.WaitingForReplicas, behind.get().message());
    }
    List<MaintenanceWindows.Window> windows = spec.updates().maintenanceWindows();
    if (!MaintenanceWindows.open(windows, now)) {
      Optional<Instant> opens = MaintenanceWindows.nextOpening(windows, now);
      return Optional.of(
          new Plan(
              from,
              to,
              Phase.WaitingForWindow,
              "waiting for the next maintenance window"
                  + opens.map(at -> " (opens " + at + ")").orElse(""),
              new Steps(backupJob, Optional.empty(), Optional.empty()),
              opens));
    }
    String primary = Names.of(leader.get());
    return Optional.of(
        new Plan(
            from,
            to,
            Phase.Upgrading,
            "Job " + jobName + " is being created: Spilo's in-place " + "upgrade on " + primary,
            new Steps(backupJob, Optional.of(jobName), Optional.of(primary)),
            Optional.empty()));
  }

  /** The phase a present upgrade Job stands for; the Job (and the backup Job, if there is one) are kept. */
  private static Plan followJob(int from, int to, ObjectNode job, Optional<String> backupJob) {
    String name = Names.of(job);
    Optional<String> kept = Optional.of(name);
    if (JobConditions.succeeded(job)) {
      return new Plan(
          from,
          to,
          Phase.Succeeded,
          "done by Job " + name,
          new Steps(backupJob, kept, Optional.empty()),
          Optional.empty());
    }
    if (!JobConditions.failed(job)) {
      return new Plan(
          from,
          to,
          Phase.Upgrading,
          "Job " + name + " runs Spilo's in-place upgrade on the primary",
          new Steps(backupJob, kept, Optional.empty()),
          Optional.empty());
    }
    OptionalInt code = exitCode(job);
    String retry = ". Read the log of Job " + name + "'s pod, then delete the Job to try again";
    if (code.isPresent() && code.getAsInt() == INCOMPLETE) {
      return new Plan(
          from,
          to,
          Phase.Incomplete,
          "the primary runs PostgreSQL "
              + to
              + ", but Spilo's upgrade reported "
              + "an error after switching its data directory (a replica not synchronised?): check every member",
          new Steps(backupJob, kept, Optional.empty()),
          Optional.empty());
    }
    String why =
        !code.isPresent()
            ? "Job " + name + " failed"
            : switch (code.getAsInt()) {
              case NOT_UPGRADED -> "Spilo's upgrade refused or rolled back";
              case NO_BINARIES ->
                  "the image has no PostgreSQL "
                      + to
                      + " binaries (an image that carries both versions is needed)";
              case OTHER_VERSION ->
                  "the primary's data directory is at neither " + from + " nor " + to;
              default ->
                  "Job "
                      + name
                      + " exited with "
                      + code.getAsInt()
                      + " (the exec into the primary failed?)";
            };
    return new Plan(
        from,
        to,
        Phase.Failed,
        why + "; the cluster stays on PostgreSQL " + from + retry,
        new Steps(backupJob, kept, Optional.empty()),
        Optional.empty());
  }

  /** An upgrade Job after which the data directory is at the new version. */
  private static boolean upgraded(JsonNode job) {
    return JobConditions.succeeded(job) || exitCode(job).equals(OptionalInt.of(INCOMPLETE));
  }

  /** The exit code a failed Job's FailJob rule recorded, if that is how it failed. */
  static OptionalInt exitCode(JsonNode job) {
    return JobConditions.find(job.path("status"), "Failed")
        .filter(condition -> "PodFailurePolicy".equals(condition.path("reason").asText()))
        .map(condition -> EXIT_CODE.matcher(condition.path("message").asText()))
        .filter(Matcher::find)
        .map(m -> OptionalInt.of(Integer.parseInt(m.group(1))))
        .orElse(OptionalInt.empty());
  }

  private static OptionalInt fromOf(JsonNode job) {
    return number(job.path("metadata").path("annotations").path(FROM_ANNOTATION).asText(""));
  }

  private static OptionalInt deployed(ObservedCluster observed) {
    return observed.deployedVersion().map(MajorUpgrade::number).orElse(OptionalInt.empty());
  }

  private static OptionalInt number(String text) {
    return text.matches("[0-9]{1,3}")
        ? OptionalInt.of(Integer.parseInt(text))
        : OptionalInt.empty();
  }

  /** A phase that waits (asks for the backup Job, if any, and nothing else). */
  private record Wait(int from, int to, Optional<String> backupJob) {
    Optional<Plan> of(Phase phase, String message) {
      String text = phase == Phase.Failed ? message : "waiting for " + message;
      return Optional.of(
          new Plan(
              from,
              to,
              phase,
              text,
              new Steps(backupJob, Optional.empty(), Optional.empty()),
              Optional.empty()));
    }
  }
}
