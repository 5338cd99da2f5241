package dev.metahooks.controllers.postgres.observed;

import java.time.Instant;
import java.util.Optional;

/**
 * The store check's last report, read from the data of the observed ConfigMap {@code <n>-backup-health} (written by
 * scripts/store-check.sh; every value a string, empty for "none") by {@link BackupHealthReader}: a report, none
 * yet, or data that is not a report, with the reason.
 */
public sealed interface BackupHealthReport {
  /** The format this hook reads. */
  String FORMAT = "1";

  /** No report yet: no ConfigMap, or one the check has not written. */
  record Missing() implements BackupHealthReport {}

  /** Data that is not a report of {@link #FORMAT}. */
  record Unreadable(String reason) implements BackupHealthReport {}

  /** A base backup as the store shows it. */
  record BaseBackup(String name, Instant start, Instant end) {}

  /** One WAL file and when, from pg_stat_archiver. */
  record Wal(String name, Instant time) {}

  /** What the primary said; {@code error} set when it could not be asked. */
  record Archiver(
      Optional<String> error,
      String archiveMode,
      long archived,
      Optional<Wal> lastArchived,
      long failed,
      Optional<Wal> lastFailed) {}

  /**
   * What the store holds; {@code error} set when it could not be listed. {@code lastArchivedInStore} empty when
   * there was nothing to look for.
   */
  record Store(
      Optional<String> error,
      int baseBackups,
      Optional<BaseBackup> lastBackup,
      Optional<Instant> firstRecoverabilityPoint,
      int walSegments,
      Optional<String> newestWal,
      Optional<Boolean> lastArchivedInStore) {}

  record Report(Instant checkedAt, Archiver archiver, Store store) implements BackupHealthReport {}
}
