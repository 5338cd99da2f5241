package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.backup.StoreChecks;
import dev.metahooks.controllers.postgres.observed.BackupHealthReader;
import dev.metahooks.controllers.postgres.observed.BackupHealthReport;
import dev.metahooks.controllers.postgres.observed.BackupHealthReport.Report;
import dev.metahooks.controllers.postgres.observed.BackupHealthReport.Wal;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.CronSchedule;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Physical backups as the store check last saw them ({@link StoreChecks}): {@code status.backup.physical}, the
 * {@code ContinuousArchiving} condition, and their part of {@code BackupsHealthy}. Nothing here is True for what no
 * check has shown: without a report, with one that cannot be read, or with one older than
 * {@link StoreChecks#STALE_AFTER}, the answer is Unknown, saying why.
 */
public final class PhysicalBackupStatus {
  public static final String CONTINUOUS_ARCHIVING = "ContinuousArchiving";

  private PhysicalBackupStatus() {}

  /** {@code status.backup.physical}: the last readable report, stale or not (its {@code checkedAt} says when). */
  public static Optional<ObjectNode> render(ObservedCluster observed) {
    if (!(BackupHealthReader.of(observed) instanceof Report report)) {
      return Optional.empty();
    }
    ObjectNode physical = Json.object().put("checkedAt", report.checkedAt().toString());
    report
        .store()
        .lastBackup()
        .ifPresent(
            last ->
                physical
                    .putObject("lastBackup")
                    .put("name", last.name())
                    .put("start", last.start().toString())
                    .put("end", last.end().toString()));
    report
        .store()
        .firstRecoverabilityPoint()
        .ifPresent(t -> physical.put("firstRecoverabilityPoint", t.toString()));
    if (report.store().error().isEmpty()) {
      physical
          .put("baseBackups", report.store().baseBackups())
          .put("walSegments", report.store().walSegments());
      report.store().newestWal().ifPresent(wal -> physical.put("newestWal", wal));
    }
    if (report.archiver().error().isEmpty()) {
      ObjectNode archiving =
          physical
              .putObject("archiving")
              .put("archivedCount", report.archiver().archived())
              .put("failedCount", report.archiver().failed());
      report
          .archiver()
          .lastArchived()
          .ifPresent(
              wal ->
                  archiving
                      .put("lastArchivedWal", wal.name())
                      .put("lastArchivedTime", wal.time().toString()));
      report
          .archiver()
          .lastFailed()
          .ifPresent(
              wal ->
                  archiving
                      .put("lastFailedWal", wal.name())
                      .put("lastFailedTime", wal.time().toString()));
    }
    return Optional.of(physical);
  }

  /** When the report at hand goes stale with nothing but the clock. */
  public static Optional<Instant> staleAt(ObservedCluster observed, Instant now) {
    if (BackupHealthReader.of(observed) instanceof Report report) {
      Instant stale = report.checkedAt().plus(StoreChecks.STALE_AFTER);
      return stale.isAfter(now) ? Optional.of(stale) : Optional.empty();
    }
    return Optional.empty();
  }

  /** ContinuousArchiving: what the primary said of archive_command, checked against the store. */
  public static Conditions.Condition continuousArchiving(
      BackupSpec.Backup backup, ObservedCluster observed, Instant now) {
    Optional<Conditions.Condition> unknown = unchecked(CONTINUOUS_ARCHIVING, observed, now);
    if (unknown.isPresent()) {
      return unknown.get();
    }
    Report report = (Report) BackupHealthReader.of(observed);
    BackupHealthReport.Archiver archiver = report.archiver();
    if (archiver.error().isPresent()) {
      return Conditions.Condition.unknown(
          CONTINUOUS_ARCHIVING,
          "PrimaryUnreachable",
          "the store check at "
              + report.checkedAt()
              + " could not ask the primary: "
              + archiver.error().get());
    }
    String lastArchived = archiver.lastArchived().map(PhysicalBackupStatus::wal).orElse("none");
    String lastFailed = archiver.lastFailed().map(PhysicalBackupStatus::wal).orElse("none");
    String counts =
        " ("
            + archiver.archived()
            + " archived, "
            + archiver.failed()
            + " failed since the statistics"
            + " were reset; checked at "
            + report.checkedAt()
            + ")";
    if (!archiver.archiveMode().equals("on") && !archiver.archiveMode().equals("always")) {
      return new Conditions.Condition(
          CONTINUOUS_ARCHIVING,
          false,
          "ArchivingOff",
          "archive_mode is \""
              + archiver.archiveMode()
              + "\" on the primary: no WAL is archived"
              + counts);
    }
    boolean failingNow =
        archiver.lastFailed().isPresent()
            && (archiver.lastArchived().isEmpty()
                || archiver
                    .lastFailed()
                    .get()
                    .time()
                    .isAfter(archiver.lastArchived().get().time()));
    if (failingNow) {
      return new Conditions.Condition(
          CONTINUOUS_ARCHIVING,
          false,
          "ArchivingFailing",
          "archiving WAL "
              + lastFailed
              + " failed, and nothing has been archived since; last archived: "
              + lastArchived
              + counts
              + "; the primary's log says why");
    }
    if (report.store().lastArchivedInStore().equals(Optional.of(false))) {
      return new Conditions.Condition(
          CONTINUOUS_ARCHIVING,
          false,
          "ArchiveNotInStore",
          "the primary archived "
              + lastArchived
              + ", but "
              + walUrl(backup)
              + " does not hold it: archive_command writes elsewhere"
              + counts);
    }
    if (archiver.lastArchived().isEmpty()) {
      return Conditions.Condition.unknown(
          CONTINUOUS_ARCHIVING,
          "NothingArchivedYet",
          "the primary has not archived a WAL file yet" + counts);
    }
    return new Conditions.Condition(
        CONTINUOUS_ARCHIVING,
        true,
        "Archiving",
        "last archived WAL " + lastArchived + "; last failed: " + lastFailed + counts);
  }

  /** The physical part of BackupsHealthy: a verified base backup recent for its schedule, and archiving. */
  public static Conditions.Condition healthy(
      BackupSpec.Backup backup, ObservedCluster observed, Instant now) {
    String type = BackupStatus.BACKUPS_HEALTHY;
    Optional<Conditions.Condition> unknown = unchecked(type, observed, now);
    if (unknown.isPresent()) {
      return unknown.get();
    }
    Report report = (Report) BackupHealthReader.of(observed);
    String checked = " (checked at " + report.checkedAt() + ")";
    if (report.store().error().isPresent()) {
      return new Conditions.Condition(
          type, false, "StoreUnreachable", report.store().error().get() + checked);
    }
    Conditions.Condition archiving = continuousArchiving(backup, observed, now);
    if (!archiving.status() && !archiving.unknown()) {
      return new Conditions.Condition(type, false, archiving.reason(), archiving.message());
    }
    if (report.store().lastBackup().isEmpty()) {
      return new Conditions.Condition(
          type,
          false,
          "NoBaseBackup",
          "the store shows no complete base backup under "
              + backup.s3().url()
              + "/basebackups_005/"
              + checked);
    }
    BackupHealthReport.BaseBackup last = report.store().lastBackup().get();
    Optional<Instant> missedSince =
        CronSchedule.parse(backup.schedule()).flatMap(c -> c.runBeforeLast(report.checkedAt()));
    Optional<Instant> running =
        observed
            .statefulSet()
            .flatMap(sts -> time(sts.path("metadata").path("creationTimestamp").asText()));
    if (missedSince.isPresent()
        && running.isPresent()
        && running.get().isBefore(missedSince.get())
        && last.start().isBefore(missedSince.get())) {
      return new Conditions.Condition(
          type,
          false,
          "NoRecentBaseBackup",
          "the newest complete base backup, "
              + last.name()
              + ", started at "
              + last.start()
              + ", before the scheduled run of "
              + missedSince.get()
              + " (schedule \""
              + backup.schedule()
              + "\", UTC)"
              + checked);
    }
    if (archiving.unknown()) {
      return new Conditions.Condition(type, false, archiving.reason(), archiving.message(), true);
    }
    return new Conditions.Condition(
        type,
        true,
        "BackupsVerified",
        "the store shows base backup "
            + last.name()
            + " (started "
            + last.start()
            + ", ended "
            + last.end()
            + ") and "
            + report.store().baseBackups()
            + " in all; "
            + archiving.message());
  }

  /** Unknown when no current report can tell. */
  private static Optional<Conditions.Condition> unchecked(
      String type, ObservedCluster observed, Instant now) {
    String check =
        "CronJob " + Names.storeCheck(observed.name()) + " (" + StoreChecks.SCHEDULE + ", UTC)";
    BackupHealthReport read = BackupHealthReader.of(observed);
    if (read instanceof BackupHealthReport.Missing) {
      return Optional.of(
          Conditions.Condition.unknown(
              type,
              "NotChecked",
              "the store check, "
                  + check
                  + ", has not reported into ConfigMap "
                  + Names.backupHealth(observed.name())
                  + " yet"));
    }
    if (read instanceof BackupHealthReport.Unreadable unreadable) {
      return Optional.of(
          Conditions.Condition.unknown(
              type,
              "ReportUnreadable",
              "ConfigMap "
                  + Names.backupHealth(observed.name())
                  + " does not hold a report of the store check: "
                  + unreadable.reason()));
    }
    Report report = (Report) read;
    if (!report.checkedAt().plus(StoreChecks.STALE_AFTER).isAfter(now)) {
      return Optional.of(
          Conditions.Condition.unknown(
              type,
              "ReportStale",
              "the last report of the store check is from "
                  + report.checkedAt()
                  + ", more than "
                  + StoreChecks.STALE_AFTER.toMinutes()
                  + " minutes ago: "
                  + check
                  + " does not run or cannot write its report (its Jobs' logs say why)"));
    }
    return Optional.empty();
  }

  private static String wal(Wal wal) {
    return wal.name() + " at " + wal.time();
  }

  private static String walUrl(BackupSpec.Backup backup) {
    return backup.s3().url() + "/wal_005/";
  }

  private static Optional<Instant> time(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
