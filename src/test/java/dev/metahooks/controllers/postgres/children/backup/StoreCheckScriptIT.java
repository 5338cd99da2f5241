package dev.metahooks.controllers.postgres.children.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ArchivingPostgres;
import dev.metahooks.controllers.postgres.BackupAnswersTest;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.StandInApiServer;
import dev.metahooks.controllers.postgres.StoreCheckReports;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.S3Server;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store check CronJob's container as the kubelet starts it, against a real PostgreSQL that archives its WAL
 * into a real S3 API (s3rver, through the stand-in wal-g's {@code wal-push} as Spilo's archive_command runs it)
 * and a stand-in API server that takes the report: what the script writes is then read by the hook, through a sync
 * call, so that the report's keys and values are those the hook reads.
 */
class StoreCheckScriptIT {
  private static final String BUCKET = "pg-store-check";
  private static final String NAME = "ledger";
  private static ArchivingPostgres archiving;
  private static S3Server s3;
  private static PostgresServer server;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws IOException {
    archiving = ArchivingPostgres.start(BUCKET, "shop/" + NAME);
    s3 = archiving.s3;
    server = archiving.server;
  }

  @AfterAll
  static void stop() {
    if (archiving != null) {
      archiving.close();
    }
  }

  private static void archiveTo(String endpoint) throws IOException {
    archiving.archiveTo(endpoint);
  }

  @Test
  void whatThePrimaryAndTheStoreShowReachesStatusAndEachFaultIsReported() throws IOException {
    ObservedRequests world = cluster();
    try (StandInApiServer api =
        StandInApiServer.start(dir, ObservedRequests.NAMESPACE, request -> 200)) {
      // Nothing archived, nothing backed up yet: the check says so, and nothing is True.
      PostgresServer.Result first = check(world, api, Map.of());
      assertThat(first.exitCode()).as(first.output()).isZero();
      assertThat(api.requests)
          .extracting(StandInApiServer.Request::line)
          .containsExactly(
              "PATCH /api/v1/namespaces/shop/configmaps/ledger-backup-health Bearer test-token");
      assertThat(api.requests.get(0).contentType()).isEqualTo("application/merge-patch+json");
      JsonNode report = read(world, api);
      assertThat(report.path("database").asText()).isEqualTo("ok");
      assertThat(report.path("archiveMode").asText()).isEqualTo("on");
      assertThat(report.path("baseBackups").asText()).isEqualTo("0");
      assertThat(condition(world, "BackupsHealthy")).isEqualTo("False NoBaseBackup");

      // A base backup and archived WAL: verified.
      PostgresServer.Result push = backupPush();
      assertThat(push.exitCode()).as(push.output()).isZero();
      long archived = archiverCount("archived_count");
      server.query("CREATE TABLE IF NOT EXISTS ledger AS SELECT generate_series(1, 1000) AS entry");
      server.query("SELECT pg_switch_wal()");
      await(
          () -> archiverCount("archived_count") > archived,
          "the archiver archives the switched segment");
      String lastArchived = server.query("SELECT last_archived_wal FROM pg_stat_archiver").strip();
      assertThat(s3.keys(BUCKET, "shop/ledger/wal_005/"))
          .contains("shop/ledger/wal_005/" + lastArchived + ".lz4");
      assertThat(check(world, api, Map.of()).exitCode()).isZero();
      report = read(world, api);
      String backup =
          s3.keys(BUCKET, "shop/ledger/basebackups_005/").stream()
              .filter(k -> k.endsWith("_backup_stop_sentinel.json"))
              .findFirst()
              .orElseThrow()
              .replaceAll(".*/(base_[0-9A-F]+)_backup_stop_sentinel.json", "$1");
      assertThat(report.path("lastBackupName").asText()).isEqualTo(backup);
      assertThat(report.path("lastArchivedWal").asText()).isEqualTo(lastArchived);
      assertThat(report.path("lastArchivedInStore").asText()).isEqualTo("yes");
      assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
      assertThat(condition(world, "ContinuousArchiving")).isEqualTo("True Archiving");
      assertThat(message(world, "ContinuousArchiving"))
          .startsWith("last archived WAL " + lastArchived + " at ");
      assertThat(world.status.at("/backup/physical/lastBackup/name").asText()).isEqualTo(backup);
      assertThat(world.status.at("/backup/physical/firstRecoverabilityPoint").asText())
          .isEqualTo(world.status.at("/backup/physical/lastBackup/end").asText());

      // archive_command fails (the store moved away): the primary's failures reach
      // ContinuousArchiving.
      archiveTo("http://127.0.0.1:" + BaseBackupVerificationIT.closedPort());
      try {
        long failed = archiverCount("failed_count");
        server.query("INSERT INTO ledger SELECT generate_series(1, 1000)");
        server.query("SELECT pg_switch_wal()");
        await(() -> archiverCount("failed_count") > failed, "the archiver fails");
        String failing = server.query("SELECT last_failed_wal FROM pg_stat_archiver").strip();
        assertThat(check(world, api, Map.of()).exitCode()).isZero();
        assertThat(read(world, api).path("lastFailedWal").asText()).isEqualTo(failing);
        assertThat(condition(world, "ContinuousArchiving")).isEqualTo("False ArchivingFailing");
        assertThat(message(world, "ContinuousArchiving"))
            .startsWith("archiving WAL " + failing + " at ")
            .contains("last archived: " + lastArchived + " at ");
        assertThat(condition(world, "BackupsHealthy")).isEqualTo("False ArchivingFailing");
      } finally {
        archiveTo(s3.endpoint());
      }
    }
  }

  @Test
  void aStoreOrPrimaryTheCheckCannotReachIsReportedAndFailsTheRun() throws IOException {
    ObservedRequests world = cluster();
    try (StandInApiServer api =
        StandInApiServer.start(dir, ObservedRequests.NAMESPACE, request -> 200)) {
      PostgresServer.Result store =
          check(
              world,
              api,
              Map.of(
                  "S3_ENDPOINT",
                  "http://127.0.0.1:" + BaseBackupVerificationIT.closedPort(),
                  "AWS_MAX_ATTEMPTS",
                  "1"));
      assertThat(store.exitCode()).isNotZero();
      JsonNode report = read(world, api);
      assertThat(report.path("store").asText()).isEqualTo("error");
      assertThat(report.path("storeError").asText())
          .startsWith("cannot list s3://pg-store-check/shop/ledger/basebackups_005/");
      assertThat(condition(world, "BackupsHealthy")).isEqualTo("False StoreUnreachable");

      PostgresServer.Result primary =
          check(
              world, api, Map.of("PGPORT", String.valueOf(BaseBackupVerificationIT.closedPort())));
      assertThat(primary.exitCode()).isNotZero();
      assertThat(read(world, api).path("databaseError").asText())
          .startsWith("cannot read pg_stat_archiver on 127.0.0.1:");
      assertThat(condition(world, "ContinuousArchiving")).isEqualTo("Unknown PrimaryUnreachable");
    }
  }

  @Test
  void aReportTheApiServerRefusesFailsTheRunLoudly() {
    ObservedRequests world = cluster();
    try (StandInApiServer api =
        StandInApiServer.start(dir, ObservedRequests.NAMESPACE, request -> 403)) {
      PostgresServer.Result refused = check(world, api, Map.of());
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.output())
          .contains("cannot write the report into ConfigMap ledger-backup-health: HTTP 403");
    }
  }

  private static ObservedRequests cluster() {
    ObjectNode spec = Json.object();
    // The prefix the archive_command above writes to.
    spec.putObject("backup")
        .putObject("s3")
        .put("bucket", BUCKET)
        .put("endpoint", "http://minio.storage.svc:9000")
        .put("forcePathStyle", true)
        .put("prefix", "shop/" + NAME)
        .putObject("credentials")
        .put("secretName", "s3-creds");
    ObservedRequests world = new ObservedRequests(NAME, spec);
    // The report's times are the machine's: the hook judges them by the same clock.
    BackupAnswersTest.Clock clock = new BackupAnswersTest.Clock();
    clock.now = Instant.now();
    world.sources = clock;
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  /** The CronJob's container, its cluster stand-ins local: the primary, the store, the API server. */
  private static PostgresServer.Result check(
      ObservedRequests world, StandInApiServer api, Map<String, String> overrides) {
    ObjectNode cron = world.children.get("CronJob/" + Names.storeCheck(NAME));
    Kubelet.Container container =
        RenderedContainers.of(
            world, cron, StoreChecks.CONTAINER, List.of(BaseBackupVerificationIT.userSecret()));
    assertThat(container.environment())
        .containsEntry("PGHOST", "ledger-rw.shop.svc")
        .containsEntry("REPORT_CONFIGMAP", "ledger-backup-health")
        .containsEntry("S3_PREFIX", "shop/ledger");
    Map<String, String> local = RenderedContainers.localStore(server, s3);
    local.putAll(api.environment());
    local.putAll(overrides);
    return RenderedContainers.run(container, local, Duration.ofMinutes(2));
  }

  /** The data of the last PATCH, put into the world's ConfigMap as the API server would; then a sync. */
  private static JsonNode read(ObservedRequests world, StandInApiServer api) throws IOException {
    StandInApiServer.Request last = api.requests.get(api.requests.size() - 1);
    JsonNode body = JsonTrees.MAPPER.readTree(last.body());
    assertThat(body.fieldNames()).toIterable().containsExactly("data");
    StoreCheckReports.write(world, (ObjectNode) body.get("data"));
    assertThat(body.get("data").fieldNames())
        .toIterable()
        .containsExactlyElementsOf(() -> StoreCheckReports.healthy(Instant.now()).fieldNames());
    ((BackupAnswersTest.Clock) world.sources).now = Instant.now();
    world.sync();
    return body.get("data");
  }

  private static PostgresServer.Result backupPush() throws IOException {
    return archiving.backupPush();
  }

  private static long archiverCount(String column) {
    return Long.parseLong(server.query("SELECT " + column + " FROM pg_stat_archiver").strip());
  }

  private static void await(BooleanSupplier condition, String what) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now())
          .as("waiting until " + what + "\n" + server.log())
          .isBefore(deadline);
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static String condition(ObservedRequests world, String type) {
    return BackupAnswersTest.condition(world.status, type);
  }

  private static String message(ObservedRequests world, String type) {
    return BackupAnswersTest.conditionMessage(world.status, type);
  }
}
