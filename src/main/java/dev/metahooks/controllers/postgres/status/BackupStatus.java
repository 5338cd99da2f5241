package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.backup.Backups;
import dev.metahooks.controllers.postgres.children.backup.LogicalBackups;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.BackupJobs;
import dev.metahooks.controllers.postgres.plan.FinalBackups;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.CronSchedule;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code status.backup} and the {@code BackupsHealthy} condition, from what the hook observes of its own backup
 * children: the Jobs (on-demand, final, restore) and the logical CronJob's {@code lastSuccessfulTime}. Base
 * backups on {@code spec.backup.schedule} run by Spilo's cron inside the primary; their results are in the pod's
 * log and the bucket, not here.
 *
 * <p>The condition depends on the clock: a logical backup that has not succeeded since the run before the
 * schedule's last one (a whole period missed) makes it False.
 */
public final class BackupStatus {
  public static final String BACKUPS_HEALTHY = "BackupsHealthy";

  /** One observed outcome. */
  public record Outcome(String name, String method, Instant time, boolean succeeded) {}

  private BackupStatus() {}

  public static Optional<ObjectNode> render(ClusterSpec spec, ObservedCluster observed) {
    BackupSpec backups = spec.backups();
    if (backups.backup().isEmpty()
        && backups.logicalRestore().isEmpty()
        && observedJobs(observed).isEmpty()) {
      return Optional.empty();
    }
    ObjectNode status = Json.object();
    backups.backup().ifPresent(backup -> status.put("location", backup.s3().url()));
    if (backups.backup().isPresent()) {
      PhysicalBackupStatus.render(observed).ifPresent(physical -> status.set("physical", physical));
    }
    List<Outcome> outcomes = outcomes(observed);
    latest(outcomes, true).ifPresent(o -> status.set("lastSuccessful", outcome(o)));
    latest(outcomes, false).ifPresent(o -> status.set("lastFailed", outcome(o)));
    List<BackupSpec.OnDemand> onDemand =
        backups.backup().map(BackupSpec.Backup::onDemand).orElse(List.of());
    if (!onDemand.isEmpty()) {
      ArrayNode list = status.putArray("onDemand");
      for (BackupSpec.OnDemand entry : onDemand) {
        String job = BackupJobs.onDemandJob(observed.name(), entry.name(), observed);
        list.addObject()
            .put("name", entry.name())
            .put("method", entry.method())
            .put("job", job)
            .put("phase", phase(observed.job(job)));
      }
    }
    FinalBackups.observedJob(observed)
        .ifPresent(
            job ->
                status
                    .putObject("finalBackup")
                    .put("job", Names.of(job))
                    .put("phase", phase(Optional.of(job))));
    backups
        .logicalRestore()
        .ifPresent(
            restore ->
                status
                    .putObject("logicalRestore")
                    .put("job", Names.logicalRestoreJob(observed.name()))
                    .put(
                        "source",
                        "s3://" + restore.s3().bucket() + "/" + restore.s3().prefix() + "/logical")
                    .put("phase", phase(observed.job(Names.logicalRestoreJob(observed.name())))));
    return Optional.of(status);
  }

  /**
   * When BackupsHealthy may change with nothing but the clock: the logical schedule's next run, after which a
   * backup older than the run before it counts as missed, or the time the store check's report goes stale. The answer asks to be called again then (and so is never
   * replayed from the response cache).
   */
  public static Optional<Instant> nextJudgement(
      ClusterSpec spec, ObservedCluster observed, Instant now) {
    if (spec.backups().backup().isEmpty()) {
      return Optional.empty();
    }
    Optional<Instant> logical =
        spec.backups()
            .backup()
            .flatMap(BackupSpec.Backup::logical)
            .flatMap(l -> CronSchedule.parse(l.schedule()))
            .flatMap(schedule -> schedule.nextRun(now));
    return Stream.of(logical, PhysicalBackupStatus.staleAt(observed, now))
        .flatMap(Optional::stream)
        .min(Comparator.naturalOrder());
  }

  /**
   * BackupsHealthy, when spec.backup is set: False when a backup Job failed, a logical backup was missed or the
   * store check found a fault; Unknown while no current store check report shows physical backups; True only
   * when it does, and the Jobs show nothing wrong.
   */
  public static Optional<Conditions.Condition> healthy(
      ClusterSpec spec, ObservedCluster observed, Instant now) {
    if (spec.backups().backup().isEmpty()) {
      return Optional.empty();
    }
    BackupSpec.Backup backup = spec.backups().backup().get();
    Conditions.Condition jobs = jobsHealthy(backup, observed, now);
    if (!jobs.status()) {
      return Optional.of(jobs);
    }
    Conditions.Condition physical = PhysicalBackupStatus.healthy(backup, observed, now);
    if (!physical.status()) {
      return Optional.of(physical);
    }
    return Optional.of(
        new Conditions.Condition(
            BACKUPS_HEALTHY, true, physical.reason(), physical.message() + "; " + jobs.message()));
  }

  /** What the backup Jobs and the logical CronJob show: False or True. */
  private static Conditions.Condition jobsHealthy(
      BackupSpec.Backup backup, ObservedCluster observed, Instant now) {
    List<Outcome> outcomes = outcomes(observed);
    Optional<Outcome> lastSuccess = latest(outcomes, true);
    Optional<Outcome> lastFailure = latest(outcomes, false);
    if (lastFailure.isPresent()
        && (lastSuccess.isEmpty() || lastFailure.get().time().isAfter(lastSuccess.get().time()))) {
      return new Conditions.Condition(
          BACKUPS_HEALTHY,
          false,
          "BackupFailed",
          lastFailure.get().method()
              + " backup "
              + lastFailure.get().name()
              + " failed at "
              + lastFailure.get().time()
              + " and none has succeeded since; its pod's log says why");
    }
    if (backup.logical().isPresent()) {
      String schedule = backup.logical().get().schedule();
      Optional<ObjectNode> cron =
          observed.child("batch/v1", "CronJob", Names.logicalCronJob(observed.name()));
      Optional<Instant> missedSince =
          CronSchedule.parse(schedule).flatMap(c -> c.runBeforeLast(now));
      Optional<Instant> created =
          cron.flatMap(c -> time(c.path("metadata").path("creationTimestamp")));
      Optional<Instant> lastLogical =
          cron.flatMap(c -> time(c.path("status").path("lastSuccessfulTime")));
      boolean judged =
          missedSince.isPresent()
              && created.isPresent()
              && created.get().isBefore(missedSince.get());
      if (judged && (lastLogical.isEmpty() || lastLogical.get().isBefore(missedSince.get()))) {
        return new Conditions.Condition(
            BACKUPS_HEALTHY,
            false,
            "NoRecentBackup",
            "no logical backup has succeeded since "
                + missedSince.get()
                + " (schedule \""
                + schedule
                + "\", UTC); last: "
                + lastLogical.map(Instant::toString).orElse("never"));
      }
      if (lastLogical.isPresent()) {
        return new Conditions.Condition(
            BACKUPS_HEALTHY,
            true,
            "RecentBackup",
            "the last logical backup succeeded at " + lastLogical.get());
      }
      return new Conditions.Condition(
          BACKUPS_HEALTHY,
          true,
          "Scheduled",
          "no scheduled logical backup has been missed yet (schedule \"" + schedule + "\", UTC)");
    }
    return new Conditions.Condition(
        BACKUPS_HEALTHY, true, "NoFailureObserved", "no backup Job of this cluster failed");
  }

  /** Every finished backup the hook observes (the restore is not a backup). */
  public static List<Outcome> outcomes(ObservedCluster observed) {
    List<Outcome> outcomes = new ArrayList<>();
    for (ObjectNode job : observedJobs(observed)) {
      String component = job.path("metadata").path("labels").path(Labels.COMPONENT).asText();
      String method = component.equals(LogicalBackups.COMPONENT) ? "logical" : "base";
      if (JobConditions.succeeded(job)) {
        time(job.path("status").path("completionTime"))
            .ifPresent(t -> outcomes.add(new Outcome(Names.of(job), method, t, true)));
      } else if (JobConditions.failed(job)) {
        failureTime(job).ifPresent(t -> outcomes.add(new Outcome(Names.of(job), method, t, false)));
      }
    }
    observed
        .child("batch/v1", "CronJob", Names.logicalCronJob(observed.name()))
        .flatMap(cron -> time(cron.path("status").path("lastSuccessfulTime")))
        .ifPresent(
            t ->
                outcomes.add(
                    new Outcome(Names.logicalCronJob(observed.name()), "logical", t, true)));
    return outcomes;
  }

  private static List<ObjectNode> observedJobs(ObservedCluster observed) {
    return observed.children("batch/v1", "Job").stream()
        .filter(
            job ->
                List.of(Backups.COMPONENT, Backups.FINAL_COMPONENT, LogicalBackups.COMPONENT)
                    .contains(job.path("metadata").path("labels").path(Labels.COMPONENT).asText()))
        .toList();
  }

  private static Optional<Outcome> latest(List<Outcome> outcomes, boolean succeeded) {
    return outcomes.stream()
        .filter(o -> o.succeeded() == succeeded)
        .max(Comparator.comparing(Outcome::time).thenComparing(Outcome::name));
  }

  private static ObjectNode outcome(Outcome outcome) {
    return Json.object()
        .put("name", outcome.name())
        .put("method", outcome.method())
        .put("time", outcome.time().toString());
  }

  public static String phase(Optional<ObjectNode> job) {
    if (job.isEmpty()) {
      return "Pending";
    }
    return JobConditions.succeeded(job.get())
        ? "Succeeded"
        : JobConditions.failed(job.get()) ? "Failed" : "Running";
  }

  private static Optional<Instant> failureTime(JsonNode job) {
    for (JsonNode condition : job.path("status").path("conditions")) {
      if ("Failed".equals(condition.path("type").asText())) {
        return time(condition.path("lastTransitionTime"));
      }
    }
    return Optional.empty();
  }

  private static Optional<Instant> time(JsonNode text) {
    if (!text.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(text.asText()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
