package dev.metahooks.controllers.postgres.observed;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static dev.metahooks.testsupport.JsonLiteral.sameJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.BackupAnswersTest;
import dev.metahooks.controllers.postgres.BackupEnvironmentTest;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.StoreCheckReports;
import java.time.Instant;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The store check's report as the hook reads it: status.backup.physical, ContinuousArchiving and BackupsHealthy,
 * through sync calls of a {@link ObservedRequests}. Before the first report, and with one that is stale or unreadable,
 * nothing is True; each fault the check can report makes its condition False with what it found.
 */
class PhysicalBackupStatusTest {
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  private final BackupAnswersTest.Clock clock = new BackupAnswersTest.Clock();

  private ObservedRequests running() {
    ObservedRequests world =
        new ObservedRequests("orders", BackupEnvironmentTest.withBackup(Json.object()));
    world.sources = clock;
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  private ObservedRequests reported(ObjectNode data) {
    ObservedRequests world = running();
    StoreCheckReports.write(world, data);
    world.sync();
    return world;
  }

  @Test
  void theCheckAndItsReportAreChildrenAndTheReportsDataIsNeverTheHooks() {
    ObservedRequests world = running();
    assertThat(world.children)
        .containsKeys(
            "CronJob/orders-store-check",
            "ServiceAccount/orders-store-check",
            "Role/orders-store-check",
            "RoleBinding/orders-store-check",
            "ConfigMap/orders-backup-health");
    assertThat(world.children.get("Role/orders-store-check").path("rules"))
        .isEqualTo(
            json(
                "[{\"apiGroups\":[\"\"],"
                    + "\"resources\":[\"configmaps\"],\"resourceNames\":[\"orders-backup-health\"],\"verbs\":[\"patch\"]}]"));
    JsonNode answer = world.call(false);
    for (JsonNode child : answer.path("children")) {
      if (child.at("/metadata/name").asText().equals("orders-backup-health")) {
        assertThat(child.has("data")).as("the hook never sets the report's data").isFalse();
      }
    }
    // Once the check has written, the hook's answer still carries no data, so the merge keeps the
    // check's.
    StoreCheckReports.write(world, StoreCheckReports.healthy(NOW));
    for (JsonNode child : world.call(false).path("children")) {
      if (child.at("/metadata/name").asText().equals("orders-backup-health")) {
        assertThat(child.has("data")).isFalse();
      }
    }
  }

  @Test
  void nothingCheckedIsUnknownNeverTrue() {
    ObservedRequests world = running();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("Unknown NotChecked");
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("Unknown NotChecked");
    assertThat(message(world, "BackupsHealthy"))
        .isEqualTo(
            "the store check, CronJob orders-store-check (*/10 * * * *,"
                + " UTC), has not reported into ConfigMap orders-backup-health yet");
    assertThat(world.status.at("/backup/physical").isMissingNode()).isTrue();
  }

  @Test
  void aHealthyReportShowsTheLastBackupTheFirstRecoverabilityPointAndArchiving() {
    ObservedRequests world = reported(StoreCheckReports.healthy(NOW.minusSeconds(60)));
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("True Archiving");
    assertThat(message(world, "ContinuousArchiving"))
        .isEqualTo(
            "last archived WAL 000000010000000000000029 at "
                + "2026-12-01T11:57:00Z; last failed: none (41 archived, 0 failed since the statistics were reset; checked at "
                + "2026-12-01T11:59:00Z)");
    assertThat(world.status.at("/backup/physical"))
        .usingComparator(sameJson())
        .isEqualTo(
            json(
                "{\"checkedAt\":\"2026-12-01T11:59:00Z\","
                    + "\"lastBackup\":{\"name\":\"base_000000010000000000000028\",\"start\":\"2026-12-01T10:59:00Z\","
                    + "\"end\":\"2026-12-01T11:00:00Z\"},\"firstRecoverabilityPoint\":\"2026-11-30T10:59:00Z\",\"baseBackups\":2,"
                    + "\"walSegments\":41,\"newestWal\":\"000000010000000000000029\",\"archiving\":{\"archivedCount\":41,"
                    + "\"failedCount\":0,\"lastArchivedWal\":\"000000010000000000000029\","
                    + "\"lastArchivedTime\":\"2026-12-01T11:57:00Z\"}}"));
  }

  @Test
  void archivingThatFailsSinceItsLastSuccessIsFalseWithBothWals() {
    ObjectNode data =
        StoreCheckReports.healthy(NOW)
            .put("failedCount", "7")
            .put("lastFailedWal", "00000001000000000000002A")
            .put("lastFailedTime", NOW.minusSeconds(30).toString());
    ObservedRequests world = reported(data);
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("False ArchivingFailing");
    assertThat(message(world, "ContinuousArchiving"))
        .startsWith(
            "archiving WAL 00000001000000000000002A at "
                + "2026-12-01T11:59:30Z failed, and nothing has been archived since; last archived: 000000010000000000000029 at "
                + "2026-12-01T11:58:00Z (41 archived, 7 failed");
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False ArchivingFailing");
    // A failure followed by a success is history, not a fault.
    StoreCheckReports.write(world, data.put("lastFailedTime", NOW.minusSeconds(600).toString()));
    world.sync();
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("True Archiving");
    assertThat(message(world, "ContinuousArchiving"))
        .contains("last failed: 00000001000000000000002A at 2026-12-01T11:50:00Z");
  }

  @Test
  void anUnreachableStoreIsFalseWhatThePrimarySaysStillShows() {
    ObjectNode data =
        StoreCheckReports.healthy(NOW)
            .put("store", "error")
            .put(
                "storeError",
                "cannot list s3://pg-backups/shop/orders/basebackups_005/ (check the bucket, the endpoint and"
                    + " the credentials Secret): Could not connect to the endpoint URL");
    ObservedRequests world = reported(data);
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False StoreUnreachable");
    assertThat(message(world, "BackupsHealthy"))
        .contains("Could not connect to the endpoint URL", "(checked at 2026-12-01T12:00:00Z)");
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("True Archiving");
    assertThat(world.status.at("/backup/physical/baseBackups").isMissingNode()).isTrue();
  }

  @Test
  void aPrimaryTheCheckCouldNotAskLeavesArchivingUnknown() {
    ObservedRequests world =
        reported(
            StoreCheckReports.healthy(NOW)
                .put("database", "error")
                .put(
                    "databaseError",
                    "cannot read pg_stat_archiver on orders-rw.shop.svc: connection refused"));
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("Unknown PrimaryUnreachable");
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("Unknown PrimaryUnreachable");
    assertThat(world.status.at("/backup/physical/archiving").isMissingNode()).isTrue();
  }

  @Test
  void noBaseBackupArchivingOffAndAnArchiveElsewhereAreFalse() {
    ObservedRequests world =
        reported(
            StoreCheckReports.healthy(NOW)
                .put("baseBackups", "0")
                .put("lastBackupName", "")
                .put("lastBackupStart", "")
                .put("lastBackupEnd", "")
                .put("firstRecoverabilityPoint", ""));
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False NoBaseBackup");
    assertThat(message(world, "BackupsHealthy"))
        .contains("s3://pg-backups/shop/orders/" + world.uid + "/basebackups_005/");

    StoreCheckReports.write(world, StoreCheckReports.healthy(NOW).put("archiveMode", "off"));
    world.sync();
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("False ArchivingOff");

    StoreCheckReports.write(world, StoreCheckReports.healthy(NOW).put("lastArchivedInStore", "no"));
    world.sync();
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("False ArchiveNotInStore");
    assertThat(message(world, "ContinuousArchiving"))
        .contains("s3://pg-backups/shop/orders/" + world.uid + "/wal_005/ does not hold it");
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False ArchiveNotInStore");
  }

  @Test
  void aBaseBackupOlderThanTheScheduleAllowsIsFalse() {
    // Schedule "15 3 * * *": checked on Dec 1 at 12:00, the run before the last is Nov 30 03:15.
    ObservedRequests world =
        reported(
            StoreCheckReports.healthy(NOW)
                .put("lastBackupStart", "2026-11-29T03:15:00Z")
                .put("lastBackupEnd", "2026-11-29T03:20:00Z"));
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False NoRecentBaseBackup");
    assertThat(message(world, "BackupsHealthy"))
        .contains(
            "started at 2026-11-29T03:15:00Z, before the scheduled run "
                + "of 2026-11-30T03:15:00Z (schedule \"15 3 * * *\", UTC)");
  }

  @Test
  void aStaleReportIsUnknownAndTheAnswerAsksToBeCalledWhenItGoesStale() {
    ObservedRequests world = reported(StoreCheckReports.healthy(NOW.minusSeconds(300)));
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    assertThat(world.call(false).path("resyncAfterSeconds").asDouble()).isEqualTo(30 * 60);
    clock.now = NOW.plusSeconds(30 * 60);
    world.sync();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("Unknown ReportStale");
    assertThat(condition(world, "ContinuousArchiving")).isEqualTo("Unknown ReportStale");
    assertThat(message(world, "ContinuousArchiving"))
        .startsWith(
            "the last report of the store check is from "
                + "2026-12-01T11:55:00Z, more than 35 minutes ago: CronJob orders-store-check");
    // What it last saw stays in status, with its time.
    assertThat(world.status.at("/backup/physical/checkedAt").asText())
        .isEqualTo("2026-12-01T11:55:00Z");
  }

  @Test
  void unreadableReportsAreUnknownWithTheReasonNeverAFailedCall() {
    Map<String, ObjectNode> cases =
        Map.of(
            "format \"2\" is not 1", StoreCheckReports.healthy(NOW).put("format", "2"),
            "checkedAt is \"yesterday\", not a UTC time",
                StoreCheckReports.healthy(NOW).put("checkedAt", "yesterday"),
            "archivedCount is \"-1\", not a count",
                StoreCheckReports.healthy(NOW).put("archivedCount", "-1"),
            "store is \"maybe\", not ok or error",
                StoreCheckReports.healthy(NOW).put("store", "maybe"),
            "lastBackupEnd is missing",
                (ObjectNode) StoreCheckReports.healthy(NOW).without("lastBackupEnd"),
            "lastArchivedTime is empty", StoreCheckReports.healthy(NOW).put("lastArchivedTime", ""),
            "lastArchivedInStore is \"perhaps\", not yes or no",
                StoreCheckReports.healthy(NOW).put("lastArchivedInStore", "perhaps"),
            "baseBackups is missing", StoreCheckReports.healthy(NOW).put("baseBackups", 2));
    cases.forEach(
        (reason, data) -> {
          ObservedRequests world = reported(data);
          assertThat(condition(world, "BackupsHealthy"))
              .as(reason)
              .isEqualTo("Unknown ReportUnreadable");
          assertThat(message(world, "ContinuousArchiving"))
              .isEqualTo(
                  "ConfigMap orders-backup-health does not hold a "
                      + "report of the store check: "
                      + reason);
          assertThat(world.status.at("/backup/physical").isMissingNode()).isTrue();
        });
  }

  @Property(tries = 300)
  void anyDataReadsAsAReportNoneOrUnreadable(
      @ForAll Map<String, String> data, @ForAll boolean fromAReport) {
    ObjectNode node = fromAReport ? StoreCheckReports.healthy(NOW) : Json.object();
    data.forEach(node::put);
    BackupHealthReport read = BackupHealthReader.read(node);
    assertThat(read).isNotNull();
  }

  private static String condition(ObservedRequests world, String type) {
    return BackupAnswersTest.condition(world.status, type);
  }

  private static String message(ObservedRequests world, String type) {
    return BackupAnswersTest.conditionMessage(world.status, type);
  }
}
