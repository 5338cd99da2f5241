package dev.metahooks.controllers.postgres.children.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ArchivingPostgres;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.S3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The final backup Job's steps as rendered, in their order, against a real PostgreSQL that archives its WAL into a
 * real S3 API (s3rver, through the stand-in wal-g's {@code wal-push} as Spilo's archive_command runs it): the fence
 * ends every client session and leaves new transactions read-only, so no commit comes after the backup; the last
 * step waits until the store holds the WAL segment that the switch after the backup closed, and fails while
 * archiving fails or once a reload lifted the fence. The fence is never in what the backup holds nor in the data
 * directory left behind: a cluster started from either is writable. (The backup is a consistent copy of the data
 * directory pushed by the stand-in wal-g; real WAL-G's backup-push copies the same files.)
 */
class FinalBackupFencingIT {
  private static final String BUCKET = "pg-final-backups";
  private static final String NAME = "closing";
  private static final String PREFIX = "shop/" + NAME;
  private static ArchivingPostgres archiving;
  private static S3Server s3;
  private static PostgresServer server;

  @TempDir Path run;

  @BeforeAll
  static void start() throws IOException {
    archiving = ArchivingPostgres.start(BUCKET, PREFIX);
    s3 = archiving.s3;
    server = archiving.server;
    server.query("CREATE TABLE orders (id text PRIMARY KEY)");
  }

  @AfterAll
  static void stop() {
    if (archiving != null) {
      archiving.close();
    }
  }

  @Test
  void theFencedFinalBackupHoldsTheLastCommitWaitsForTheArchiveAndLeavesNothingReadOnly()
      throws Exception {
    ObservedRequests world = cluster();
    JsonNode job =
        Backups.finalBackupJob(
            NAME, ObservedRequests.NAMESPACE, SpecReader.read(world.parent()).spec());
    assertThat(names(job.at("/spec/template/spec/initContainers")))
        .containsExactly("started", "fence", "backup", "verify");
    assertThat(names(job.at("/spec/template/spec/containers"))).containsExactly("archived");

    // While archiving fails, the last step does not let the deletion go on, and says what the
    // primary reports.
    archiving.archiveTo("http://127.0.0.1:" + BaseBackupVerificationIT.closedPort());
    try {
      server.query("INSERT INTO orders VALUES ('before-the-outage')");
      PostgresServer.Result waiting =
          step(world, job, Backups.ARCHIVED_CONTAINER, Map.of("ARCHIVE_WAIT_SECONDS", "8"));
      assertThat(waiting.exitCode()).as(waiting.output()).isNotZero();
      assertThat(waiting.output())
          .containsPattern(
              "s3://pg-final-backups/shop/closing/wal_005/ does not hold "
                  + "[0-9A-F]{24} after 8 s; the volumes stay until it does \\(pg_stat_archiver: last archived .*, last failed "
                  + "[0-9A-F]{24} at ");
    } finally {
      archiving.archiveTo(s3.endpoint());
    }

    // A client in the middle of a transaction when the deletion comes.
    Process client = session();
    send(client, "BEGIN;\nINSERT INTO orders VALUES ('uncommitted');\n");
    Poll.until(
        "the client's transaction is open",
        () ->
            server
                .query(
                    "SELECT count(*) FROM pg_stat_activity"
                        + " WHERE application_name = 'shop-app' AND state = 'idle in transaction'")
                .strip()
                .equals("1"));

    assertThat(step(world, job, Backups.STARTED_CONTAINER, Map.of()).exitCode()).isZero();
    PostgresServer.Result fence = step(world, job, Backups.FENCE_CONTAINER, Map.of());
    assertThat(fence.exitCode()).as(fence.output()).isZero();
    // The count also takes in a session that a psql just closed while its backend still exits (this
    // test's and
    // the script's own): what matters is that the client's session is among them, as its output
    // shows below.
    assertThat(fence.output())
        .containsPattern(
            "fenced 127.0.0.1: new transactions are read-only; ended [1-9][0-9]* client sessions");
    send(client, "COMMIT;\n");
    client.getOutputStream().close();
    assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("terminating connection due to administrator command");
    // No commit after the fence: the open transaction is gone, a new one is refused.
    PostgresServer.Result refused =
        server.psql(
            PostgresServer.SUPERUSER,
            server.superuserPassword(),
            "postgres",
            "INSERT INTO orders VALUES ('after-the-fence')");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.output()).contains("cannot execute INSERT in a read-only transaction");
    assertThat(server.query("SELECT string_agg(id, ',' ORDER BY id) FROM orders").strip())
        .isEqualTo("before-the-outage");
    // Fencing again (a retried Job) is the same.
    PostgresServer.Result again = step(world, job, Backups.FENCE_CONTAINER, Map.of());
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output())
        .containsPattern(
            "fenced 127.0.0.1: new transactions are read-only; ended [0-9]+ client sessions");

    // The fence is in the running server only, not in the configuration the backup copies.
    assertThat(Files.readString(server.dataDirectory().resolve("postgresql.auto.conf")))
        .doesNotContain("default_transaction_read_only");
    PostgresServer.Result push = archiving.backupPushOfTheData();
    assertThat(push.exitCode()).as(push.output()).isZero();
    PostgresServer.Result verified =
        step(world, job, Backups.VERIFY_CONTAINER, Map.of("BACKUP_RUN", run.toString()));
    assertThat(verified.exitCode()).as(verified.output()).isZero();
    PostgresServer.Result archived = step(world, job, Backups.ARCHIVED_CONTAINER, Map.of());
    assertThat(archived.exitCode()).as(archived.output()).isZero();
    String segment =
        archived.output().replaceAll("(?s).*every WAL segment up to ([0-9A-F]{24}) is in.*", "$1");
    assertThat(s3.keys(BUCKET, PREFIX + "/wal_005/"))
        .contains(PREFIX + "/wal_005/" + segment + ".lz4");
    // That segment holds the last commit: the WAL position of the last insert is at or before its
    // end.
    assertThat(
            server
                .query("SELECT last_archived_wal >= '" + segment + "' FROM pg_stat_archiver")
                .strip())
        .isEqualTo("t");

    // A reload before the deletion ends lifts the fence (the file no longer holds it): the last
    // step says so and
    // fails, and the Job's next try fences and backs up again.
    server.query("SELECT pg_reload_conf()");
    Poll.until(
        "the reload lifted the fence",
        () -> server.query("SHOW default_transaction_read_only").strip().equals("off"));
    PostgresServer.Result lifted = step(world, job, Backups.ARCHIVED_CONTAINER, Map.of());
    assertThat(lifted.exitCode()).as(lifted.output()).isNotZero();
    assertThat(lifted.output()).contains("the fence was lifted during the final backup");
    server.stop();

    // A cluster cloned from the final backup starts from what the backup holds: writable, every row
    // there.
    PostgresServer clone =
        PostgresServer.startOver(
            archiving.fetchNewestBackup(PostgresServer.newDataDirectory()),
            server.superuserPassword(),
            Map.of());
    try {
      assertWritableWith(clone, "before-the-outage");
    } finally {
      clone.stop();
    }
    // A cluster created again over the retained volume starts from the data directory as the
    // deletion left it.
    PostgresServer retained =
        PostgresServer.startOver(server.dataDirectory(), server.superuserPassword(), Map.of());
    try {
      assertWritableWith(retained, "before-the-outage");
    } finally {
      retained.stop();
    }
  }

  /** New transactions may write (the users Job's ALTER ROLE, the application's INSERT), and the rows are there. */
  private static void assertWritableWith(PostgresServer started, String rows) {
    assertThat(started.query("SHOW default_transaction_read_only").strip()).isEqualTo("off");
    assertThat(started.query("SELECT string_agg(id, ',' ORDER BY id) FROM orders").strip())
        .isEqualTo(rows);
    PostgresServer.Result role =
        started.psql(
            PostgresServer.SUPERUSER,
            started.superuserPassword(),
            "postgres",
            "ALTER ROLE postgres SET statement_timeout = 0; INSERT INTO orders VALUES ('after-the-restore')");
    assertThat(role.exitCode()).as(role.output()).isZero();
  }

  private static ObservedRequests cluster() {
    ObjectNode spec = Json.object();
    ObjectNode backup = spec.putObject("backup").put("finalBackup", true);
    backup
        .putObject("s3")
        .put("bucket", BUCKET)
        .put("endpoint", "http://minio.storage.svc:9000")
        .put("forcePathStyle", true)
        .put("prefix", PREFIX)
        .putObject("credentials")
        .put("secretName", "s3-creds");
    ObservedRequests world = new ObservedRequests(NAME, spec);
    world.sync();
    return world;
  }

  /** One step of the Job as the kubelet starts it, the primary and the store local. */
  private PostgresServer.Result step(
      ObservedRequests world, JsonNode job, String container, Map<String, String> overrides) {
    Map<String, String> local = RenderedContainers.localStore(server, s3);
    local.put("BACKUP_RUN", run.toString());
    local.putAll(overrides);
    return RenderedContainers.run(
        RenderedContainers.of(
            world, job, container, List.of(BaseBackupVerificationIT.userSecret())),
        local,
        Duration.ofMinutes(2));
  }

  /** An application's session, kept open: psql reading its statements from a pipe. */
  private static Process session() throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(
                server.bin().resolve("psql").toString(), "-X", "-q", "-v", "ON_ERROR_STOP=1")
            .redirectErrorStream(true);
    builder.environment().putAll(server.environment(PostgresServer.SUPERUSER, "postgres"));
    builder.environment().put("PGPASSWORD", server.superuserPassword());
    builder.environment().put("PGAPPNAME", "shop-app");
    return builder.start();
  }

  private static void send(Process client, String statements) throws IOException {
    OutputStream in = client.getOutputStream();
    in.write(statements.getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private static List<String> names(JsonNode containers) {
    List<String> names = new ArrayList<>();
    containers.forEach(c -> names.add(c.path("name").asText()));
    return names;
  }
}
