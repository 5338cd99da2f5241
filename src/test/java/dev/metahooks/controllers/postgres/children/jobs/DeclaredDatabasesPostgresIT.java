package dev.metahooks.controllers.postgres.children.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedUsersJob;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.testsupport.PostgresServer;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * spec.databases applied by the users Job as the hook renders it, against a real PostgreSQL: names no identifier
 * rule would allow (quotes, spaces, Unicode, a leading dash, shaped like a connection URI or conninfo, kubelet and
 * psql syntax), their schemas and extensions, who may connect, running the Job again, an extension the server does
 * not have, and what happens to a database removed from the spec under each reclaimPolicy.
 */
class DeclaredDatabasesPostgresIT {
  private static PostgresServer server;

  /** Each reaches PostgreSQL only as data: none may change what the Job does, and each is created as written. */
  static final List<String> HOSTILE =
      List.of(
          "it's \"quoted\"; DROP DATABASE postgres; --",
          "  spaces around  ",
          "ünïcødé データ",
          "-d template1",
          "postgresql://evil@127.0.0.1:1/x?sslmode=disable",
          "dbname=postgres host=nowhere",
          "$(HOME) $$ ${PGHOST} :'users' \\gexec");

  @BeforeAll
  static void startServer() {
    server = PostgresServer.shared();
  }

  @Test
  void hostileNamesAreCreatedAsWrittenWithTheirSchemasExtensionsAndOwnerOnlyAccess() {
    ObservedRequests world =
        world(
            "dbh",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbh-app");
              spec.withArray("users")
                  .addObject()
                  .put("name", "dbh-bi")
                  .putArray("connect")
                  .add(HOSTILE.get(2));
              for (String name : HOSTILE) {
                ObjectNode database =
                    spec.withArray("databases")
                        .addObject()
                        .put("name", name)
                        .put("owner", "dbh-app");
                database.putArray("schemas").add("it's \"odd\"").add("Ünï " + name.length());
                database.putArray("extensions").add("citext").add("uuid-ossp");
              }
            });
    assertThat(SpecReader.read(world.parent()).problems()).isEmpty();
    world.sync();
    RenderedUsersJob.run(world, server);

    String mark =
        DeclaredDatabases.mark("dbh", ObservedRequests.NAMESPACE, world.uid)
            + "; reclaimPolicy: Retain";
    assertThat(mark).contains("shop/dbh (incarnation " + world.uid + ")");
    for (String name : HOSTILE) {
      assertThat(
              server
                  .query(
                      "SELECT pg_get_userbyid(datdba) || '|' || shobj_description(oid, 'pg_database')"
                          + " FROM pg_database WHERE datname = "
                          + literal(name))
                  .strip())
          .as(name)
          .isEqualTo("dbh-app|" + mark);
      assertThat(
              server
                  .query(
                      name,
                      "SELECT string_agg(nspname || '=' || pg_get_userbyid(nspowner), ',' ORDER BY nspname)"
                          + " FROM pg_namespace WHERE nspname IN ('it''s \"odd\"', "
                          + literal("Ünï " + name.length())
                          + ")")
                  .strip())
          .isEqualTo("it's \"odd\"=dbh-app,Ünï " + name.length() + "=dbh-app");
      assertThat(
              server
                  .query(
                      name,
                      "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension"
                          + " WHERE extname IN ('citext', 'uuid-ossp')")
                  .strip())
          .isEqualTo("citext,uuid-ossp");
      assertConnects(world, "dbh-app", name);
      if (!name.equals(HOSTILE.get(2))) {
        assertRefused(world, "dbh-bi", name, "permission denied for database");
      }
    }
    assertConnects(world, "dbh-bi", HOSTILE.get(2));
    // Nothing a name says was done: no template1 touched, no other database, postgres still there.
    assertThat(
            server
                .query(
                    "SELECT count(*) FROM pg_database WHERE datname IN ('postgres', 'template1', 'x', 'evil')")
                .strip())
        .isEqualTo("2");

    // The owner uses its database: a table in its schema, with an extension's type.
    String password = secret(world, "dbh-app");
    PostgresServer.Result used =
        server.psql(
            "dbh-app",
            password,
            HOSTILE.get(0),
            "CREATE TABLE \"it's \"\"odd\"\"\".t (email citext); INSERT INTO \"it's \"\"odd\"\"\".t VALUES ('A@B'); "
                + "SELECT count(*) FROM \"it's \"\"odd\"\"\".t WHERE email = 'a@b'");
    assertThat(used.exitCode()).as(used.output()).isZero();
    assertThat(used.output().strip()).isEqualTo("1");

    // Running the same Job again changes nothing, and a new Job for the same spec keeps the same
    // name.
    String before = catalogue("dbh-");
    String job = usersJob(world);
    RenderedUsersJob.run(world, server);
    world.sync();
    assertThat(usersJob(world)).isEqualTo(job);
    assertThat(catalogue("dbh-")).isEqualTo(before);
    assertThat(server.query(HOSTILE.get(0), "SELECT count(*) FROM \"it's \"\"odd\"\"\".t").strip())
        .isEqualTo("1");
  }

  @Test
  void anExtensionTheServerDoesNotHaveStopsTheJobBeforeAnythingChangesAndTheFixedSpecApplies() {
    ObservedRequests world =
        world(
            "dbx",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbx-app");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbx one")
                  .put("owner", "dbx-app")
                  .putArray("extensions")
                  .add("citext")
                  .add("no_such_extension");
            });
    world.sync();
    String failing = usersJob(world);
    PostgresServer.Result failed = RenderedUsersJob.attempt(world, server);
    assertThat(failed.exitCode()).isNotZero();
    assertThat(failed.output())
        .contains(
            "extensions not available on this server, nothing was changed: "
                + "no_such_extension (database dbx one)");
    assertThat(server.query("SELECT count(*) FROM pg_database WHERE datname = 'dbx one'").strip())
        .isEqualTo("0");
    assertThat(server.query("SELECT count(*) FROM pg_roles WHERE rolname = 'dbx-app'").strip())
        .isEqualTo("0");

    // The spec fixed: a new Job (a new name), which applies everything.
    world.edit(
        spec -> ((ArrayNode) spec.withArray("databases").get(0).withArray("extensions")).remove(1));
    world.sync();
    assertThat(usersJob(world)).isNotEqualTo(failing);
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query(
                    "dbx one",
                    "SELECT string_agg(extname, ',') FROM pg_extension WHERE extname = 'citext'")
                .strip())
        .isEqualTo("citext");
    assertConnects(world, "dbx-app", "dbx one");
  }

  @Test
  void objectsMadeByHandOrByAnInterruptedRunAreTakenOverNotInTheWay() {
    // What a Job cut off after CREATE DATABASE leaves, or a DBA made first: the next run converges.
    server.query("CREATE DATABASE \"dbi half\"");
    server.query("dbi half", "CREATE SCHEMA app; CREATE EXTENSION citext");
    ObservedRequests world =
        world(
            "dbi",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbi-app");
              ObjectNode database =
                  spec.withArray("databases")
                      .addObject()
                      .put("name", "dbi half")
                      .put("owner", "dbi-app");
              database.putArray("schemas").add("app");
              database.putArray("extensions").add("citext").add("hstore");
            });
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'dbi half'")
                .strip())
        .isEqualTo("dbi-app");
    assertThat(
            server
                .query(
                    "dbi half",
                    "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'app'")
                .strip())
        .isEqualTo("dbi-app");
    assertThat(
            server
                .query(
                    "dbi half",
                    "SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension"
                        + " WHERE extname IN ('citext', 'hstore')")
                .strip())
        .isEqualTo("citext,hstore");
    assertConnects(world, "dbi-app", "dbi half");
  }

  @Test
  void aRemovedDatabaseIsKeptUnlessItsPolicySaidDelete() {
    ObservedRequests world =
        world(
            "dbr",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbr-app");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbr kept")
                  .put("owner", "dbr-app");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbr 'dropped'")
                  .put("owner", "dbr-app")
                  .put("reclaimPolicy", "Delete");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbr_moved")
                  .put("owner", "dbr-app")
                  .put("reclaimPolicy", "Delete");
            });
    world.sync();
    RenderedUsersJob.run(world, server);
    server.query("dbr kept", "CREATE TABLE precious (x int); INSERT INTO precious VALUES (42)");
    assertThat(databases("dbr")).containsExactly("dbr 'dropped'", "dbr kept", "dbr_moved");

    // A cluster of another name, restored from this one's data, with none declared: it drops
    // nothing.
    ObservedRequests restored =
        world("dbr-restored", spec -> spec.withArray("users").addObject().put("name", "dbr-other"));
    restored.sync();
    RenderedUsersJob.run(restored, server);
    assertThat(databases("dbr")).containsExactly("dbr 'dropped'", "dbr kept", "dbr_moved");

    // Every entry removed, dbr_moved now in the user's own databases (which no policy covers): only
    // the one
    // declared with Delete goes.
    world.edit(
        spec -> {
          spec.remove("databases");
          ((ObjectNode) spec.withArray("users").get(0)).putArray("databases").add("dbr_moved");
        });
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(databases("dbr")).containsExactly("dbr kept", "dbr_moved");
    assertThat(server.query("dbr kept", "SELECT x FROM precious").strip()).isEqualTo("42");
    assertThat(
            server
                .query(
                    "SELECT coalesce(shobj_description(oid, 'pg_database'), 'none') FROM pg_database"
                        + " WHERE datname = 'dbr_moved'")
                .strip())
        .isEqualTo("none");

    // Removed from the user's databases too: it lost its mark, so it stays.
    world.edit(spec -> ((ObjectNode) spec.withArray("users").get(0)).remove("databases"));
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(databases("dbr")).containsExactly("dbr kept", "dbr_moved");
  }

  @Test
  void aSameNameRestoreWhoseSpecLacksADeleteDatabaseKeepsItAndItsRows() {
    ObservedRequests original =
        world("dbs", spec -> declareDeleted(spec, "dbs orders", "dbs still declared"));
    original.sync();
    RenderedUsersJob.run(original, server);
    server.query(
        "dbs orders", "CREATE TABLE orders AS SELECT g AS id FROM generate_series(1, 5000) g");
    // What the version before marks named the incarnation wrote, on a database no spec lists any
    // more.
    server.query("CREATE DATABASE \"dbs legacy\"");
    server.query(
        "COMMENT ON DATABASE \"dbs legacy\" IS "
            + literal(
                DeclaredDatabases.mark("dbs", ObservedRequests.NAMESPACE)
                    + "; reclaimPolicy: Delete"));

    // Restored under the same name (a new uid; a physical restore copies the marks), its spec
    // without the entry.
    ObservedRequests restored =
        new ObservedRequests(
            "dbs",
            Json.object(),
            ObservedRequests.NAMESPACE,
            "9a3c2f10-7d4e-4b8a-b1c6-0e5d4f3a2b19");
    restored.edit(
        spec -> {
          spec.put("postgresVersion", Math.min(17, Math.max(13, server.majorVersion())));
          declareDeleted(spec, "dbs still declared");
        });
    restored.sync();
    PostgresServer.Result job = RenderedUsersJob.attempt(restored, server);
    assertThat(job.exitCode()).as(job.output()).isZero();
    assertThat(databases("dbs")).containsExactly("dbs legacy", "dbs orders", "dbs still declared");
    assertThat(server.query("dbs orders", "SELECT count(*) FROM orders").strip()).isEqualTo("5000");
    assertThat(job.output())
        .contains(
            "kept, not dropped",
            "\"dbs orders\" (marked by incarnation " + original.uid + ")",
            "\"dbs legacy\" (marked by a version that named no incarnation)",
            "drop one on purpose with DROP DATABASE");
    // The database still declared is this incarnation's now, and its own marks it acts upon.
    assertThat(
            server
                .query(
                    "SELECT shobj_description(oid, 'pg_database') FROM pg_database"
                        + " WHERE datname = 'dbs still declared'")
                .strip())
        .isEqualTo(
            DeclaredDatabases.mark("dbs", ObservedRequests.NAMESPACE, restored.uid)
                + "; reclaimPolicy: Delete");
    restored.edit(spec -> spec.remove("databases"));
    restored.sync();
    RenderedUsersJob.run(restored, server);
    assertThat(databases("dbs")).containsExactly("dbs legacy", "dbs orders");

    // Dropped on purpose, as the docs say (by hand): the next run reports only the one left.
    server.query("DROP DATABASE \"dbs legacy\"");
    PostgresServer.Result again = RenderedUsersJob.attempt(restored, server);
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output())
        .contains("\"dbs orders\" (marked by incarnation")
        .doesNotContain("dbs legacy");
    assertThat(databases("dbs")).containsExactly("dbs orders");
  }

  @Test
  void aDropWaitsForTheLastSessionAndTheJobFailsUntilThen() throws Exception {
    ObservedRequests world =
        world(
            "dbw",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbw-app");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbw busy")
                  .put("owner", "dbw-app")
                  .put("reclaimPolicy", "Delete");
            });
    world.sync();
    RenderedUsersJob.run(world, server);
    world.edit(spec -> spec.remove("databases"));
    world.sync();
    Process session = holdSession(world, "dbw-app", "dbw busy");
    try {
      PostgresServer.Result refused = RenderedUsersJob.attempt(world, server);
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.output()).contains("is being accessed by other users");
      assertThat(databases("dbw")).containsExactly("dbw busy");
    } finally {
      session.destroy();
      session.waitFor();
    }
    waitUntil(
        () ->
            server
                .query("SELECT count(*) FROM pg_stat_activity WHERE datname = 'dbw busy'")
                .strip()
                .equals("0"));
    RenderedUsersJob.run(world, server);
    assertThat(databases("dbw")).isEmpty();
  }

  @Test
  void withThePoolerOnEveryDeclaredDatabaseGetsTheLookupFunction() {
    ObservedRequests world =
        world(
            "dbp",
            spec -> {
              spec.withArray("users").addObject().put("name", "dbp-app");
              spec.withArray("databases")
                  .addObject()
                  .put("name", "dbp \"pooled\"")
                  .put("owner", "dbp-app");
              spec.putObject("pooler").put("instances", 1);
            });
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query(
                    "dbp \"pooled\"",
                    "SELECT count(*) FROM pg_proc WHERE proname = 'pooler_lookup'")
                .strip())
        .isEqualTo("1");
  }

  // ---- helpers

  private ObservedRequests world(String cluster, Consumer<ObjectNode> spec) {
    ObjectNode given = Json.object();
    spec.accept(given);
    given.put("postgresVersion", Math.min(17, Math.max(13, server.majorVersion())));
    return new ObservedRequests(cluster, given);
  }

  /** User dbs-app and, owned by it, databases with {@code reclaimPolicy: Delete}. */
  private static void declareDeleted(ObjectNode spec, String... databases) {
    spec.withArray("users").addObject().put("name", "dbs-app");
    for (String database : databases) {
      spec.withArray("databases")
          .addObject()
          .put("name", database)
          .put("owner", "dbs-app")
          .put("reclaimPolicy", "Delete");
    }
  }

  private static String usersJob(ObservedRequests world) {
    return Names.of(RenderedUsersJob.of(world));
  }

  private static String secret(ObservedRequests world, String user) {
    return SecretData.value(
            world.children.get("Secret/" + Names.userSecret(world.name, user)), "password")
        .orElseThrow();
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static List<String> databases(String prefix) {
    String listed =
        server
            .query(
                "SELECT string_agg(datname, E'\\n' ORDER BY datname) FROM pg_database"
                    + " WHERE datname LIKE "
                    + literal(prefix + "%"))
            .strip();
    return listed.isEmpty() ? List.of() : List.of(listed.split("\n"));
  }

  /** Databases, owners, ACLs and comments; schemas and extensions of each database; of one cluster's names. */
  private static String catalogue(String ownerPrefix) {
    StringBuilder all =
        new StringBuilder(
            server.query(
                "SELECT string_agg(datname || pg_get_userbyid(datdba)"
                    + " || coalesce(datacl::text, '') || coalesce(shobj_description(oid, 'pg_database'), ''), E'\\n' ORDER BY datname)"
                    + " FROM pg_database WHERE pg_get_userbyid(datdba) LIKE "
                    + literal(ownerPrefix + "%")));
    for (String name : HOSTILE) {
      all.append(
          server.query(
              name,
              "SELECT string_agg(nspname || pg_get_userbyid(nspowner) || coalesce(nspacl::text, ''),"
                  + " ',' ORDER BY nspname) FROM pg_namespace"
                  // A session's temporary schemas are numbered by its backend's slot: no part of
                  // what the Job made.
                  + " WHERE nspname !~ '^pg_(toast_)?temp_'"));
      all.append(
          server.query(
              name,
              "SELECT string_agg(extname || extversion, ',' ORDER BY extname) FROM pg_extension"));
    }
    return all.toString();
  }

  private static void assertConnects(ObservedRequests world, String user, String database) {
    PostgresServer.Result result =
        server.psql(user, secret(world, user), database, "SELECT current_database()");
    assertThat(result.exitCode())
        .as("%s connecting to %s: %s", user, database, result.output())
        .isZero();
    assertThat(result.output()).isEqualTo(database + "\n");
  }

  private static void assertRefused(
      ObservedRequests world, String user, String database, String why) {
    PostgresServer.Result result = server.psql(user, secret(world, user), database, "SELECT 1");
    assertThat(result.exitCode()).as("%s connecting to %s", user, database).isNotZero();
    assertThat(result.output()).contains(why);
  }

  /** A session connected to the database until destroyed (psql reading a pipe that stays open). */
  private static Process holdSession(ObservedRequests world, String user, String database)
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(server.bin().resolve("psql").toString(), "-X", "-q");
    builder.environment().putAll(server.environment(user, database));
    builder.environment().put("PGPASSWORD", secret(world, user));
    builder.redirectErrorStream(true);
    Process process = builder.start();
    process
        .getOutputStream()
        .write("SELECT 1;\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    process.getOutputStream().flush();
    waitUntil(
        () ->
            !server
                .query("SELECT count(*) FROM pg_stat_activity WHERE datname = " + literal(database))
                .strip()
                .equals("0"));
    return process;
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    for (int i = 0; i < 200 && !condition.getAsBoolean(); i++) {
      Thread.sleep(50);
    }
    assertThat(condition.getAsBoolean()).as("condition reached within 10 s").isTrue();
  }
}
