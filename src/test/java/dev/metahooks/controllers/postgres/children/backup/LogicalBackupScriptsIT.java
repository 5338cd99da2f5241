package dev.metahooks.controllers.postgres.children.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.S3Server;
import dev.metahooks.testsupport.Shellcheck;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The logical backup and restore Jobs' scripts, exactly as the hook renders them (command, environment variable
 * names and values; only PGHOST, PGPORT, PGPASSWORD and S3_ENDPOINT point at the local servers), run against a real
 * PostgreSQL with two databases, a second, empty PostgreSQL to restore into, a real S3 API (s3rver) and Debian's AWS CLI.
 *
 * <p>The cases run concurrently (most of their time is the AWS CLI starting, once per object): each writes under
 * its own cluster's prefix, and those sharing {@link #source} only read it; a case that changes a server starts its own.
 */
class LogicalBackupScriptsIT {
  private static final String BUCKET = "pg-backups";
  private static final String RENDERED_ENDPOINT = "http://minio.storage.svc:9000";
  private static S3Server s3;
  private static PostgresServer source;

  @BeforeAll
  static void start() {
    // A server of its own: the shared one holds other tests' databases and roles.
    source = PostgresServer.startNew();
    s3 = S3Server.start(BUCKET);
    source.query("CREATE ROLE shop_owner");
    source.query("CREATE DATABASE shop OWNER shop_owner");
    source.query("CREATE DATABASE inventory");
    source.query(
        "shop",
        "SET ROLE shop_owner; CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL,"
            + " total numeric(10,2), placed timestamptz); INSERT INTO orders SELECT i, 'customer ' || (i % 97),"
            + " (i * 7 % 1000) / 3.0, timestamptz '2026-01-01' + i * interval '1 minute' FROM generate_series(1, 20000) i;"
            + " CREATE INDEX ON orders (customer); CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 300");
    source.query(
        "inventory",
        "CREATE TABLE items (sku text PRIMARY KEY, count int); INSERT INTO items SELECT 'sku-' || i,"
            + " i FROM generate_series(1, 500) i");
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
  }

  /**
   * The source archives into {@code <namespace>/<source>}, which the restore names ({@link #restoringCluster}); a
   * cluster's own default is under its uid ({@code BackupEmulatorScenarioTest}).
   */
  private static ObjectNode backupSpec(String cluster, int retain) {
    ObjectNode spec = Json.object();
    ObjectNode backup = spec.putObject("backup");
    backup
        .putObject("s3")
        .put("bucket", BUCKET)
        .put("endpoint", RENDERED_ENDPOINT)
        .put("prefix", ObservedRequests.NAMESPACE + "/" + cluster)
        .putObject("credentials")
        .put("secretName", "s3-creds");
    backup
        .putObject("logical")
        .put("schedule", "30 2 * * *")
        .putObject("retention")
        .put("count", retain);
    return spec;
  }

  private static ObjectNode cronJob(ObservedRequests world) {
    world.sync();
    ObjectNode cron = world.children.get("CronJob/" + Names.logicalCronJob(world.name));
    assertThat(cron).as("the logical backup CronJob").isNotNull();
    return cron;
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aDumpUploadedAsRenderedRestoresIntoAFreshServerWithTheSameRowsAndChecksums()
      throws IOException {
    ObservedRequests world = new ObservedRequests("orders", backupSpec("orders", 1));
    ObjectNode cron = cronJob(world);
    // What the retention must take and leave: an older backup that failed (no manifest) goes with
    // the older complete one; a key beside the backups' folders is no backup, and stays.
    Path partial = Files.writeString(Files.createTempFile("partial", ".dump"), "partial");
    s3.upload(partial, BUCKET, "shop/orders/logical/20000101T000000Z/shop.dump");
    s3.upload(partial, BUCKET, "shop/orders/logical/NOTES");
    // Two backups; the stamps have a one-second resolution, so each run starts in a new second.
    List<String> outputs = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      awaitNextSecond();
      PostgresServer.Result backup = run(world, cron, source, Map.of());
      assertThat(backup.exitCode()).as(backup.output()).isZero();
      assertThat(backup.output())
          .contains(
              "dumped shop to s3://pg-backups/shop/orders/logical/",
              "dumped inventory",
              "complete: 2 databases");
      outputs.add(backup.output());
    }
    // Retention 1: the older one is gone; the kept one is complete (two dumps, the roles and the
    // databases'
    // settings with their checksums, and the manifest).
    List<String> keys = s3.keys(BUCKET, "shop/orders/logical/");
    assertThat(keys)
        .hasSize(8)
        .contains("shop/orders/logical/NOTES")
        .allMatch(
            k ->
                k.equals("shop/orders/logical/NOTES")
                    || k.matches(
                        "shop/orders/logical/[0-9]{8}T[0-9]{6}Z/"
                            + "(shop\\.dump|inventory\\.dump|globals\\.sql|GLOBALS|settings\\.sql|SETTINGS|COMPLETE)"));
    assertThat(outputs.get(0)).contains("removed backup 20000101T000000Z (retention 1)");
    assertThat(outputs.get(1)).contains("removed backup");
    assertThat(String.join("", outputs)).doesNotContain(source.superuserPassword());

    // Restore into a fresh server, as the restore Job of a new cluster renders it; the owner role
    // exists there
    // (the new cluster's users Job makes it).
    PostgresServer target = PostgresServer.startNew();
    target.query("CREATE ROLE shop_owner");
    ObservedRequests copy = restoringCluster("orders-copy", "orders");
    ObjectNode restoreJob = restoreJob(copy);
    PostgresServer.Result restored = run(copy, restoreJob, target, Map.of());
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    assertThat(restored.output())
        .contains("restored shop from", "restored inventory from", "complete");

    String orders =
        "SELECT count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o";
    assertThat(target.query("shop", orders)).isEqualTo(source.query("shop", orders));
    String items =
        "SELECT count(*) || ' ' || md5(string_agg(i::text, ',' ORDER BY sku)) FROM items i";
    assertThat(target.query("inventory", items)).isEqualTo(source.query("inventory", items));
    assertThat(
            target
                .query("shop", "SELECT tableowner FROM pg_tables WHERE tablename = 'orders'")
                .strip())
        .isEqualTo("shop_owner");
    assertThat(target.query("shop", "SELECT count(*) FROM big_orders").strip())
        .isEqualTo(source.query("shop", "SELECT count(*) FROM big_orders").strip());

    // Run again: each database is marked restored from this backup, and is kept as it is.
    PostgresServer.Result again = run(copy, restoreJob, target, Map.of());
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output())
        .contains("shop was restored from ", "by an earlier run; kept as it is");
    assertThat(target.query("shop", orders)).isEqualTo(source.query("shop", orders));
    // A database with tables that this restore did not make: a restore never overwrites data.
    target.query("COMMENT ON DATABASE inventory IS NULL");
    PostgresServer.Result refused = run(copy, restoreJob, target, Map.of());
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.output())
        .contains("database inventory already has 1 tables; a restore does not overwrite data");
    assertThat(target.query("shop", orders)).isEqualTo(source.query("shop", orders));
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aWrongCredentialFailsWithAClearMessageAndUploadsNothing() {
    ObservedRequests world = new ObservedRequests("billing", backupSpec("billing", 3));
    ObjectNode cron = cronJob(world);
    PostgresServer.Result refused =
        run(world, cron, source, Map.of("AWS_ACCESS_KEY_ID", "NOT-A-KEY"));
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.output())
        .contains(
            "cannot list s3://pg-backups/shop/billing/ (check the bucket, the endpoint"
                + " and the credentials Secret)",
            "InvalidAccessKeyId")
        .doesNotContain("dumped", S3Server.SECRET_ACCESS_KEY + "\n");
    assertThat(s3.keys(BUCKET, "shop/billing/")).isEmpty();

    // A restore from a cluster without a complete backup says so, and restores nothing.
    ObservedRequests copy = restoringCluster("billing-copy", "billing");
    PostgresServer.Result nothing = run(copy, restoreJob(copy), source, Map.of());
    assertThat(nothing.exitCode()).isNotZero();
    assertThat(nothing.output())
        .contains("no complete logical backup under s3://pg-backups/shop/billing/logical/");
  }

  /**
   * Database names are data. A user with CREATEDB names databases like connection strings pointing at a listener of
   * theirs on a loopback port: they back up and restore, and nothing ever connects to the listener (before,
   * {@code pg_dump -d "$db"} took the URI as the connection and sent the superuser's password there).
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void connectionStringShapedNamesBackUpAndRestoreAndNothingConnectsWhereTheyPoint()
      throws Exception {
    try (ServerSocket trap = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      AtomicInteger connections = new AtomicInteger();
      Thread listener =
          new Thread(
              () -> {
                while (!trap.isClosed()) {
                  try (Socket ignored = trap.accept()) {
                    connections.incrementAndGet();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      listener.setDaemon(true);
      listener.start();
      int port = trap.getLocalPort();
      List<String> names =
          List.of(
              "postgresql://attacker@127.0.0.1:" + port + "/loot?sslmode=disable",
              "host=127.0.0.1 port=" + port + " sslmode=disable dbname=loot");
      backUpAndRestore(
          "uris",
          names,
          () -> assertThat(connections.get()).as("connections to the listener").isZero());
      assertThat(connections.get()).as("connections to the listener a name points at").isZero();
    }
  }

  /**
   * Names with spaces, quotes, {@code *}, a leading {@code -}, unicode, a newline, {@code %} and a backslash back up
   * and restore, each into a database of exactly that name (before, word splitting broke every later backup).
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void namesWithSpacesQuotesGlobsDashesUnicodeAndNewlinesBackUpAndRestore() {
    List<String> names =
        List.of(
            "my db",
            "o'brien \"quoted\"",
            "star*",
            "-h evil",
            "ünïcødé ✓",
            "line\nbreak",
            "100%_sure",
            "back\\slash");
    PostgresServer.Result backup = backUpAndRestore("names", names, () -> {});
    assertThat(backup.output())
        .contains("dumped my%20db to ", "dumped -h%20evil to ", "dumped line%0Abreak to ");
    assertThat(s3.keys(BUCKET, "shop/names/logical/"))
        .anyMatch(k -> k.endsWith("/100%25_sure.dump"))
        .anyMatch(k -> k.endsWith("/%C3%BCn%C3%AFc%C3%B8d%C3%A9%20%E2%9C%93.dump"));
  }

  /**
   * Object names are data too: an application user names a table and a column with newlines, psql's {@code \\!}
   * (each would create a file) and quotes. They back up and restore under exactly those names, and nothing runs,
   * even with a pg_restore from before the August 2025 fixes (a stand-in on the PATH before the real one, which
   * writes its text as those did: postgresql/pg_restore-before-2025-08.sh). Before, the script piped that text into
   * psql, which ran both commands.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void hostileObjectNamesComeBackAsTheyWereAndRunNothing() throws IOException {
    // A short path: a name has at most 63 bytes, and PostgreSQL would cut a longer one.
    Path scratch = Files.createTempDirectory(Path.of("/tmp"), "h");
    scratch.toFile().setWritable(true, false);
    Path tableMarker = scratch.resolve("t");
    Path columnMarker = scratch.resolve("c");
    String table = "orders\n\\! touch " + tableMarker + "\n'q";
    String column = "total\n\\! touch " + columnMarker + "\n\"x\"";
    PostgresServer hostile = PostgresServer.startNew();
    hostile.query("CREATE DATABASE shop");
    hostile.query(
        "shop",
        "CREATE TABLE "
            + identifier(table)
            + " ("
            + identifier(column)
            + " int); INSERT INTO "
            + identifier(table)
            + " VALUES (42)");
    ObservedRequests world = new ObservedRequests("hostile", backupSpec("hostile", 1));
    PostgresServer.Result backup = run(world, cronJob(world), hostile, Map.of());
    assertThat(backup.exitCode()).as(backup.output()).isZero();

    PostgresServer target = PostgresServer.startNew();
    ObservedRequests copy = restoringCluster("hostile-copy", "hostile");
    Path standIn = scratch.resolve("pg_restore");
    Files.copy(Path.of("src/test/resources/postgresql/pg_restore-before-2025-08.sh"), standIn);
    standIn.toFile().setExecutable(true, false);
    Map<String, String> before2025 = new HashMap<>(RenderedContainers.localStore(target, s3));
    before2025.put("PATH", scratch + ":" + before2025.get("PATH"));
    before2025.put("REAL_PG_RESTORE", target.bin().resolve("pg_restore").toString());
    before2025.put("HOSTILE_NAME", table);
    before2025.put("PRINTED_NAME", table.replace('\n', ' '));
    PostgresServer.Result restored = run(copy, restoreJob(copy), target, before2025);
    assertThat(tableMarker).as("the table name's command ran: " + restored.output()).doesNotExist();
    assertThat(columnMarker)
        .as("the column name's command ran: " + restored.output())
        .doesNotExist();
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    String columns =
        "SELECT c.relname || ' / ' || a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
            + " WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0";
    assertThat(target.query("shop", columns))
        .isEqualTo(hostile.query("shop", columns))
        .isEqualTo(table + " / " + column + "\n");
    assertThat(target.query("shop", "SELECT * FROM " + identifier(table)).strip()).isEqualTo("42");
  }

  /** The stand-in pg_restore passes shellcheck, as the scripts it stands in for do. */
  @Test
  void theStandInPgRestorePassesShellcheck() {
    Shellcheck.check(
        List.of(Path.of("src/test/resources/postgresql/pg_restore-before-2025-08.sh")));
  }

  private static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /**
   * A restore that fails half-way (here: the target's database {@code shop} is read-only) leaves that database
   * without tables and keeps those restored before it, so the same Job runs again once the cause is fixed.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aFailedRestoreLeavesNoTablesAndRunsAgainOnceTheCauseIsFixed() {
    ObservedRequests world = new ObservedRequests("retried", backupSpec("retried", 1));
    PostgresServer.Result backup = run(world, cronJob(world), source, Map.of());
    assertThat(backup.exitCode()).as(backup.output()).isZero();
    PostgresServer target = PostgresServer.startNew();
    target.query("CREATE DATABASE shop");
    target.query("ALTER DATABASE shop SET default_transaction_read_only = on");
    ObservedRequests copy = restoringCluster("retried-copy", "retried");
    ObjectNode restoreJob = restoreJob(copy);
    PostgresServer.Result failed = run(copy, restoreJob, target, Map.of());
    assertThat(failed.exitCode()).isNotZero();
    assertThat(failed.output()).contains("read-only transaction");
    String tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'";
    assertThat(target.query("shop", tables).strip()).isEqualTo("0");

    target.query("ALTER DATABASE shop RESET default_transaction_read_only");
    PostgresServer.Result again = run(copy, restoreJob, target, Map.of());
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output())
        .contains(
            "inventory was restored from ",
            "by an earlier run; kept as it is",
            "restored shop from");
    assertThat(target.query("shop", "SELECT count(*) FROM orders").strip()).isEqualTo("20000");
  }

  /**
   * Roles travel with a logical backup: their attributes, memberships and settings, never their
   * passwords; a role the target has already keeps its own password. Role names are data here too.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void rolesTheirMembershipsAndSettingsAreRestoredWithoutPasswords() {
    PostgresServer roles = PostgresServer.startNew();
    String odd = "o'brien \"quoted\"\nline";
    String quotedOdd = "\"" + odd.replace("\"", "\"\"") + "\"";
    roles.query("CREATE ROLE shop_owner");
    roles.query("CREATE DATABASE shop OWNER shop_owner");
    roles.query("shop", "SET ROLE shop_owner; CREATE TABLE orders (id int)");
    roles.query("CREATE ROLE " + quotedOdd + " LOGIN CONNECTION LIMIT 7 PASSWORD 'source-secret'");
    roles.query("GRANT shop_owner TO " + quotedOdd);
    roles.query("ALTER ROLE " + quotedOdd + " SET work_mem = '8MB'");
    roles.query("ALTER ROLE " + quotedOdd + " SET search_path = orders, public");
    roles.query("ALTER ROLE shop_owner PASSWORD 'owner-source-secret'");
    ObservedRequests world = new ObservedRequests("roles", backupSpec("roles", 1));
    PostgresServer.Result backup = run(world, cronJob(world), roles, Map.of());
    assertThat(backup.exitCode()).as(backup.output()).isZero();
    assertThat(backup.output()).contains("dumped the roles, their memberships and settings to");

    PostgresServer target = PostgresServer.startNew();
    target.query("CREATE ROLE shop_owner PASSWORD 'owner-target-secret'");
    String ownerVerifier =
        target.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'shop_owner'");
    ObservedRequests copy = restoringCluster("roles-copy", "roles");
    PostgresServer.Result restored = run(copy, restoreJob(copy), target, Map.of());
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    assertThat(restored.output())
        .contains("restored the roles of ", "existed already and were kept", "restored shop from");
    String literal = "'" + odd.replace("'", "''") + "'";
    assertThat(
            target
                .query(
                    "SELECT rolcanlogin || ' ' || rolconnlimit || ' ' || (rolpassword IS NULL) FROM pg_authid"
                        + " WHERE rolname = "
                        + literal)
                .strip())
        .isEqualTo("true 7 true");
    assertThat(target.query("SELECT pg_has_role(" + literal + ", 'shop_owner', 'MEMBER')").strip())
        .isEqualTo("t");
    assertThat(
            target.query(
                "SELECT coalesce(d.datname, '-') || ' ' || array_to_string(s.setconfig, ';') FROM"
                    + " pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole LEFT JOIN pg_database d ON d.oid = s.setdatabase"
                    + " WHERE r.rolname = "
                    + literal
                    + " ORDER BY 1"))
        .isEqualTo("- work_mem=8MB;search_path=orders, public\n");
    assertThat(target.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'shop_owner'"))
        .as("the target's own role keeps its password")
        .isEqualTo(ownerVerifier);
    assertThat(
            target
                .query("shop", "SELECT tableowner FROM pg_tables WHERE tablename = 'orders'")
                .strip())
        .isEqualTo("shop_owner");
  }

  /**
   * A database's own settings ({@code ALTER DATABASE ... SET}) and its roles' settings in it ({@code ALTER ROLE ...
   * IN DATABASE ... SET}) come back with the restore, whatever the names and values hold (quotes, newlines, what
   * looks like a psql variable or a backslash command, a list setting, a setting of an extension); the {@code postgres} database when asked.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void databaseSettingsAndThePostgresDatabaseOnRequestBackUpAndRestore() {
    String db = "my \"db\"\n; \\c x :v";
    String role = "app 'x' \"y\"";
    String quotedDb = "\"" + db.replace("\"", "\"\"") + "\"";
    String quotedRole = "\"" + role.replace("\"", "\"\"") + "\"";
    PostgresServer source = PostgresServer.startNew();
    source.query("CREATE ROLE " + quotedRole + " LOGIN");
    source.query("CREATE DATABASE " + quotedDb);
    source.query(
        db, "CREATE TABLE marker (name text); INSERT INTO marker VALUES (current_database())");
    source.query("ALTER DATABASE " + quotedDb + " SET work_mem = '8MB'");
    source.query("ALTER DATABASE " + quotedDb + " SET search_path = 'a b', \"$user\", public");
    source.query(
        "ALTER DATABASE " + quotedDb + " SET \"metahooks.note\" = E'it''s :x \\\\ $y\\n\\\\q'");
    source.query(
        "ALTER ROLE " + quotedRole + " IN DATABASE " + quotedDb + " SET statement_timeout = '5s'");
    source.query("CREATE TABLE notes (note text); INSERT INTO notes VALUES ('kept in postgres')");
    source.query("ALTER DATABASE postgres SET work_mem = '4MB'");
    ObjectNode spec = backupSpec("settings", 1);
    ((ObjectNode) spec.at("/backup/logical")).put("postgresDatabase", true);
    ObservedRequests world = new ObservedRequests("settings", spec);
    PostgresServer.Result backup = run(world, cronJob(world), source, Map.of());
    assertThat(backup.exitCode()).as(backup.output()).isZero();
    assertThat(backup.output())
        .contains(
            "dumped postgres to ",
            "complete: 2 databases",
            "dumped the settings of the databases (5 statements)");

    PostgresServer target = PostgresServer.startNew();
    ObservedRequests copy = restoringCluster("settings-copy", "settings", true);
    PostgresServer.Result restored = run(copy, restoreJob(copy), target, Map.of());
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    assertThat(restored.output()).contains("restored the database settings of ");
    String settings =
        "SELECT d.datname || ' / ' || coalesce(r.rolname, '-') || ' / ' || array_to_string(s.setconfig, ' | ')"
            + " FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase"
            + " LEFT JOIN pg_roles r ON r.oid = s.setrole ORDER BY 1";
    assertThat(target.query(settings))
        .isEqualTo(source.query(settings))
        .contains(
            "metahooks.note=it's :x \\ $y\n\\q",
            "search_path=\"a b\", \"$user\", public",
            "statement_timeout=5s",
            "postgres / - / work_mem=4MB");
    assertThat(target.query(db, "SELECT name FROM marker")).isEqualTo(db + "\n");
    assertThat(target.query("SELECT note FROM notes").strip()).isEqualTo("kept in postgres");
    // Once more (a retried restore): the databases are kept as they are, the settings set again
    // alike.
    PostgresServer.Result again = run(copy, restoreJob(copy), target, Map.of());
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(target.query(settings)).isEqualTo(source.query(settings));
  }

  /**
   * With the pooler on, each database holds the pooler's schema {@code metahooks} (its lookup function). It is the
   * cluster's own, not the user's data: a backup leaves it out, and a restore into a target whose pooler has made it
   * already keeps the target's (before, the restore failed with {@code schema "metahooks" already exists}).
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aClusterWithThePoolerRestoresIntoATargetWithThePooler() throws IOException {
    PostgresServer pooled = PostgresServer.startNew();
    pooled.query("CREATE ROLE metahooks_pooler LOGIN");
    pooled.query("CREATE DATABASE shop");
    pooler(pooled, "shop");
    pooled.query(
        "shop", "CREATE TABLE orders (id int); INSERT INTO orders SELECT generate_series(1, 10)");
    ObservedRequests world = new ObservedRequests("pooled", backupSpec("pooled", 1));
    PostgresServer.Result backup = run(world, cronJob(world), pooled, Map.of());
    assertThat(backup.exitCode()).as(backup.output()).isZero();

    PostgresServer target = PostgresServer.startNew();
    target.query("CREATE ROLE metahooks_pooler LOGIN");
    target.query("CREATE DATABASE shop");
    pooler(target, "shop");
    ObservedRequests copy = restoringCluster("pooled-copy", "pooled");
    PostgresServer.Result restored = run(copy, restoreJob(copy), target, Map.of());
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    assertThat(target.query("shop", "SELECT count(*) FROM orders").strip()).isEqualTo("10");
    assertThat(
            target
                .query("shop", "SELECT count(*) FROM metahooks.pooler_lookup('metahooks_pooler')")
                .strip())
        .as("the target's own lookup function, untouched")
        .isEqualTo("1");
  }

  /** What the pooler's setup runs in a database: sql/pooler-lookup.sql, through psql as the users Job runs it. */
  private static void pooler(PostgresServer server, String database) throws IOException {
    java.nio.file.Path sql = java.nio.file.Files.createTempFile("pooler-lookup-", ".sql");
    java.nio.file.Files.writeString(
        sql, dev.metahooks.controllers.postgres.children.access.ServiceRoles.LOOKUP_SQL);
    sql.toFile().setReadable(true, false);
    Map<String, String> env = new HashMap<>(server.environment(PostgresServer.SUPERUSER, database));
    env.put("PGPASSWORD", server.superuserPassword());
    PostgresServer.Result applied =
        PostgresServer.exec(
            List.of(
                server.bin().resolve("psql").toString(),
                "-X",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-f",
                sql.toString()),
            env,
            Duration.ofMinutes(1));
    assertThat(applied.exitCode()).as(applied.output()).isZero();
  }

  /**
   * Makes a database of each name (a table saying its name) on a fresh server, backs them up as cluster
   * {@code cluster}, runs {@code afterBackup}, restores into another fresh server and checks each database there.
   */
  private static PostgresServer.Result backUpAndRestore(
      String cluster, List<String> names, Runnable afterBackup) {
    PostgresServer hostile = PostgresServer.startNew();
    for (String name : names) {
      hostile.query("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
      hostile.query(
          name, "CREATE TABLE marker (name text); INSERT INTO marker VALUES (current_database())");
    }
    ObservedRequests world = new ObservedRequests(cluster, backupSpec(cluster, 2));
    PostgresServer.Result backup = run(world, cronJob(world), hostile, Map.of());
    afterBackup.run();
    assertThat(backup.exitCode()).as(backup.output()).isZero();
    assertThat(backup.output()).contains("complete: " + names.size() + " databases");

    PostgresServer target = PostgresServer.startNew();
    ObservedRequests copy = restoringCluster(cluster + "-copy", cluster);
    PostgresServer.Result restored = run(copy, restoreJob(copy), target, Map.of());
    assertThat(restored.exitCode()).as(restored.output()).isZero();
    for (String name : names) {
      assertThat(target.query(name, "SELECT name FROM marker")).as(name).isEqualTo(name + "\n");
    }
    return backup;
  }

  /** A new cluster restoring the source's logical backups, synced until its primary is ready. */
  private static ObservedRequests restoringCluster(String name, String source) {
    return restoringCluster(name, source, false);
  }

  /** With {@code postgres}: the backup's postgres database too ({@code bootstrap.logical.postgresDatabase}). */
  private static ObservedRequests restoringCluster(String name, String source, boolean postgres) {
    ObjectNode spec = Json.object();
    spec.putObject("bootstrap")
        .putObject("logical")
        .put("cluster", source)
        .put("postgresDatabase", postgres)
        .putObject("s3")
        .put("bucket", BUCKET)
        .put("prefix", ObservedRequests.NAMESPACE + "/" + source)
        .put("endpoint", RENDERED_ENDPOINT)
        .putObject("credentials")
        .put("secretName", "s3-creds");
    ObservedRequests world = new ObservedRequests(name, spec);
    world.sync();
    assertThat(world.children)
        .as("no restore before the primary is ready")
        .doesNotContainKey("Job/" + Names.logicalRestoreJob(name));
    world.runAllReady();
    world.sync();
    return world;
  }

  private static ObjectNode restoreJob(ObservedRequests world) {
    ObjectNode job = world.children.get("Job/" + Names.logicalRestoreJob(world.name));
    assertThat(job).as("the restore Job, once the primary is ready").isNotNull();
    return job;
  }

  /**
   * Runs the Job's (or CronJob's) container as the kubelet starts it: references from the world's Secrets and the
   * user's S3 Secret; the connection and the endpoint go to the local servers.
   */
  private static PostgresServer.Result run(
      ObservedRequests world,
      ObjectNode owner,
      PostgresServer server,
      Map<String, String> overrides) {
    Kubelet.Container container =
        RenderedContainers.of(
            world, owner, LogicalBackups.CONTAINER, List.of(BaseBackupVerificationIT.userSecret()));
    Map<String, String> env = container.environment();
    assertThat(env.get("PGHOST"))
        .isEqualTo(Names.serviceHost(Names.primaryService(world.name), ObservedRequests.NAMESPACE));
    assertThat(env.get("S3_ENDPOINT")).isEqualTo(RENDERED_ENDPOINT);
    Map<String, String> local = RenderedContainers.localStore(server, s3);
    local.putAll(overrides);
    return RenderedContainers.run(container, local, Duration.ofMinutes(3));
  }

  private static void awaitNextSecond() {
    Instant now = Instant.now();
    try {
      Thread.sleep(
          Duration.between(now, now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1)).toMillis() + 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
