package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Names;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads the store check's report from the observed ConfigMap {@code <n>-backup-health}. Whatever its data holds,
 * reading never fails: data that is not a report of {@link BackupHealthReport#FORMAT} is
 * {@link BackupHealthReport.Unreadable}, with the first thing wrong.
 */
public final class BackupHealthReader {
  private BackupHealthReader() {}

  public static BackupHealthReport of(ObservedCluster observed) {
    return observed
        .child("v1", "ConfigMap", Names.backupHealth(observed.name()))
        .map(configMap -> read(configMap.path("data")))
        .orElse(new BackupHealthReport.Missing());
  }

  public static BackupHealthReport read(JsonNode data) {
    if (!data.isObject() || data.isEmpty()) {
      return new BackupHealthReport.Missing();
    }
    try {
      Fields fields = new Fields(data);
      String format = fields.text("format");
      if (!BackupHealthReport.FORMAT.equals(format)) {
        return new BackupHealthReport.Unreadable(
            "format \"" + format + "\" is not " + BackupHealthReport.FORMAT);
      }
      Instant checkedAt = fields.time("checkedAt").orElseThrow(() -> new Bad("checkedAt is empty"));
      BackupHealthReport.Archiver archiver =
          fields.ok("database")
              ? new BackupHealthReport.Archiver(
                  Optional.empty(),
                  fields.text("archiveMode"),
                  fields.count("archivedCount"),
                  fields.wal("lastArchivedWal", "lastArchivedTime"),
                  fields.count("failedCount"),
                  fields.wal("lastFailedWal", "lastFailedTime"))
              : new BackupHealthReport.Archiver(
                  Optional.of(fields.text("databaseError")),
                  "",
                  0,
                  Optional.empty(),
                  0,
                  Optional.empty());
      BackupHealthReport.Store store;
      if (fields.ok("store")) {
        Optional<BackupHealthReport.BaseBackup> last =
            fields
                .optional("lastBackupName")
                .map(
                    name ->
                        new BackupHealthReport.BaseBackup(
                            name,
                            fields
                                .time("lastBackupStart")
                                .orElseThrow(() -> new Bad("lastBackupStart is empty")),
                            fields
                                .time("lastBackupEnd")
                                .orElseThrow(() -> new Bad("lastBackupEnd is empty"))));
        Optional<Boolean> inStore =
            fields
                .optional("lastArchivedInStore")
                .map(
                    value ->
                        switch (value) {
                          case "yes" -> true;
                          case "no" -> false;
                          default ->
                              throw new Bad(
                                  "lastArchivedInStore is \"" + value + "\", not yes or no");
                        });
        store =
            new BackupHealthReport.Store(
                Optional.empty(),
                (int) fields.count("baseBackups"),
                last,
                fields.time("firstRecoverabilityPoint"),
                (int) fields.count("walSegments"),
                fields.optional("newestWal"),
                inStore);
      } else {
        store =
            new BackupHealthReport.Store(
                Optional.of(fields.text("storeError")),
                0,
                Optional.empty(),
                Optional.empty(),
                0,
                Optional.empty(),
                Optional.empty());
      }
      return new BackupHealthReport.Report(checkedAt, archiver, store);
    } catch (Bad e) {
      return new BackupHealthReport.Unreadable(e.getMessage());
    }
  }

  /** A value of the report that is not what the check writes. */
  private static final class Bad extends RuntimeException {
    Bad(String message) {
      super(message, null, false, false);
    }
  }

  /** The data's values, each checked as it is read. */
  private static final class Fields {
    private final JsonNode data;

    Fields(JsonNode data) {
      this.data = data;
    }

    String text(String key) {
      JsonNode value = data.path(key);
      if (!value.isTextual()) {
        throw new Bad(key + " is missing");
      }
      return value.asText();
    }

    Optional<String> optional(String key) {
      String value = text(key);
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    boolean ok(String key) {
      String value = text(key);
      return switch (value) {
        case "ok" -> true;
        case "error" -> false;
        default -> throw new Bad(key + " is \"" + value + "\", not ok or error");
      };
    }

    long count(String key) {
      String value = text(key);
      if (!value.matches("[0-9]{1,18}")) {
        throw new Bad(key + " is \"" + value + "\", not a count");
      }
      return Long.parseLong(value);
    }

    Optional<Instant> time(String key) {
      return optional(key)
          .map(
              value -> {
                try {
                  return Instant.parse(value);
                } catch (DateTimeParseException e) {
                  throw new Bad(key + " is \"" + value + "\", not a UTC time");
                }
              });
    }

    Optional<BackupHealthReport.Wal> wal(String nameKey, String timeKey) {
      Optional<Instant> time = time(timeKey);
      return optional(nameKey)
          .map(
              name ->
                  new BackupHealthReport.Wal(
                      name, time.orElseThrow(() -> new Bad(timeKey + " is empty"))));
    }
  }
}
