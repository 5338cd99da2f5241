package dev.metahooks.controllers.postgres.children.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedUsersJob;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.PostgresServer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The users Job's script, exactly as the hook renders it (command line, environment variable names, psql flags;
 * only PGHOST and PGPORT point at the local server), run against a real PostgreSQL: each step of a users
 * lifecycle, hostile passwords, every name the CRD accepts, and what must never reach the server's log or
 * pg_stat_statements. The server logs every statement and tracks utility statements, as a careless
 * configuration would.
 */
class UsersJobPostgresIT {
  private static PostgresServer server;

  /** Every password and verifier a test made, to look for in the server's log and pg_stat_statements. */
  private final List<String> secrets = new ArrayList<>();

  @BeforeAll
  static void startServer() {
    server = PostgresServer.shared();
  }

  // ---- the lifecycle

  @Test
  void aUsersLifecycleAppliedByTheRenderedScript() {
    ObservedRequests world =
        world(
            "life",
            spec -> {
              ObjectNode app = spec.putArray("users").addObject().put("name", "life-app");
              app.putArray("databases").add("life_app").add("life_audit");
              app.putArray("options").add("CREATEDB");
              spec.withArray("users")
                  .addObject()
                  .put("name", "life-bi")
                  .putArray("connect")
                  .add("life_app");
            });
    world.sync();
    runUsersJob(world);
    assertThat(role("life-app"))
        .isEqualTo("login=t super=f createdb=t createrole=f replication=f bypassrls=f");
    assertThat(role("life-bi"))
        .isEqualTo("login=t super=f createdb=f createrole=f replication=f bypassrls=f");
    assertThat(owner("life_app")).isEqualTo("life-app");
    assertThat(owner("life_audit")).isEqualTo("life-app");
    assertCanConnect(world, "life-app", "life_app");
    assertCanConnect(world, "life-app", "life_audit");
    assertCanConnect(world, "life-bi", "life_app");
    assertCannotConnect(world, "life-bi", "life_audit", "permission denied for database");
    assertThat(storedVerifier("life-app")).isEqualTo(secret(world, "life-app", Secrets.VERIFIER));

    // Second run, nothing changed: the same Job name, and the same catalogue after running it
    // again.
    String job = usersJobName(world);
    String catalogue = catalogue("life");
    world.sync();
    assertThat(usersJobName(world)).isEqualTo(job);
    runUsersJob(world);
    assertThat(catalogue("life")).isEqualTo(catalogue);

    // Options changed.
    world.edit(spec -> ((ObjectNode) spec.withArray("users").get(0)).putArray("options"));
    world.sync();
    assertThat(usersJobName(world)).isNotEqualTo(job);
    runUsersJob(world);
    assertThat(role("life-app"))
        .isEqualTo("login=t super=f createdb=f createrole=f replication=f bypassrls=f");

    // A database moved to another owner: the old owner loses CONNECT with it.
    world.edit(
        spec -> {
          ((ObjectNode) spec.withArray("users").get(0)).putArray("databases").add("life_app");
          ((ObjectNode) spec.withArray("users").get(1)).putArray("databases").add("life_audit");
        });
    world.sync();
    runUsersJob(world);
    assertThat(owner("life_audit")).isEqualTo("life-bi");
    assertCanConnect(world, "life-bi", "life_audit");
    assertCannotConnect(world, "life-app", "life_audit", "permission denied for database");

    // Rotation: the user's Secret deleted, a new password, a new Job, which sets it.
    String oldPassword = secret(world, "life-app", "password");
    job = usersJobName(world);
    world.children.remove("Secret/" + Names.userSecret("life", "life-app"));
    world.sync();
    assertThat(secret(world, "life-app", "password")).isNotEqualTo(oldPassword);
    assertThat(usersJobName(world)).isNotEqualTo(job);
    runUsersJob(world);
    assertCanConnect(world, "life-app", "life_app");
    assertThat(server.psql("life-app", oldPassword, "life_app", "SELECT 1").exitCode()).isNotZero();

    // A user removed: NOLOGIN, role and database kept; then the last one, and the Job still runs.
    world.edit(spec -> spec.withArray("users").remove(1));
    world.sync();
    runUsersJob(world);
    assertThat(role("life-bi")).startsWith("login=f ");
    assertThat(owner("life_audit")).isEqualTo("life-bi");
    assertCannotConnect(world, "life-bi", "life_audit", "not permitted to log in");
    assertCanConnect(world, "life-app", "life_app");
    world.edit(spec -> spec.remove("users"));
    world.sync();
    runUsersJob(world);
    assertThat(role("life-app")).startsWith("login=f ");

    // Added back: LOGIN again, with the password its kept Secret holds.
    world.edit(spec -> spec.putArray("users").addObject().put("name", "life-bi"));
    world.sync();
    runUsersJob(world);
    assertThat(role("life-bi")).startsWith("login=t ");
    assertCanConnect(world, "life-bi", "postgres");
    assertNothingLeaked();
  }

  // ---- passwords

  @Test
  void hostilePasswordsAreSetVerbatimAndLogInThroughTheirVerifiers() {
    List<String> hostile =
        List.of(
            "it's \"quoted\"; DROP ROLE postgres; --",
            "back\\slash\\\\ and :'psql_var' :\"x\" \\gexec",
            "$(id) `id` ${HOME} %s %I %L",
            "  leading and trailing spaces  ",
            "pässwörd ünïcödé 密码",
            "ﬁne ligature, non\u00A0breaking space",
            "tab\tand\nnewline");
    Map<String, String> passwords = new HashMap<>();
    ObservedRequests world =
        world(
            "hostile",
            spec -> {
              for (int i = 0; i < hostile.size(); i++) {
                spec.withArray("users").addObject().put("name", "hostile-" + i);
                passwords.put(
                    "shop/" + Names.userSecret("hostile", "hostile-" + i) + "/password",
                    hostile.get(i));
              }
            });
    world.sources = sources(passwords);
    world.sync();
    runUsersJob(world);
    for (int i = 0; i < hostile.size(); i++) {
      String user = "hostile-" + i;
      assertThat(secret(world, user, "password")).isEqualTo(hostile.get(i));
      assertThat(storedVerifier(user))
          .isEqualTo(secret(world, user, Secrets.VERIFIER))
          .startsWith("SCRAM-SHA-256$4096:");
      assertCanConnect(world, user, "postgres");
      assertThat(server.psql(user, hostile.get(i) + "x", "postgres", "SELECT 1").exitCode())
          .isNotZero();
    }
    assertThat(server.query("SELECT count(*) FROM pg_roles WHERE rolname = 'postgres'").strip())
        .isEqualTo("1");
    assertNothingLeaked();
  }

  @Test
  void theLeakChecksSeeAPasswordSentInSqlText() {
    // The control: a password in SQL text does reach this server's log and pg_stat_statements.
    String canary = "canary" + Long.toHexString(System.nanoTime());
    server.query("CREATE ROLE leak_control");
    server.query("ALTER ROLE leak_control PASSWORD '" + canary + "'");
    assertThat(server.log()).contains(canary);
    assertThat(server.query("SELECT string_agg(query, ' ') FROM pg_stat_statements"))
        .contains(canary);
    server.query("DROP ROLE leak_control");
  }

  @Test
  void pgIsReadyAndPsqlConnectAsTheSuperuserWithoutAnAuthenticationFailure() {
    ObservedRequests world =
        world("ready", spec -> spec.putArray("users").addObject().put("name", "ready-app"));
    world.sync();
    int before = server.log().length();
    runUsersJob(world);
    String logged = server.log().substring(before);
    assertThat(logged).contains("connection authorized: user=postgres").doesNotContain("FATAL");
  }

  // ---- names and options

  @Test
  void everyNameTheCrdAcceptsWorks() {
    String longRole = "r" + "-9".repeat(30) + "zz";
    String longDatabase = "_" + "a1_".repeat(20) + "zz";
    List<String> roles = List.of("a", "user", "select", "a--b", longRole, "x-1");
    List<String> databases = List.of("_", "user", "select", longDatabase, "a1_");
    assertThat(longRole).hasSize(63);
    assertThat(longDatabase).hasSize(63);
    String cluster = "n" + "-".repeat(38) + "1";
    ObservedRequests world =
        world(
            cluster,
            spec -> {
              for (int i = 0; i < roles.size(); i++) {
                ObjectNode user = spec.withArray("users").addObject().put("name", roles.get(i));
                if (i < databases.size()) {
                  user.putArray("databases").add(databases.get(i));
                }
              }
            });
    assertThat(SpecReader.read(world.parent()).problems()).isEmpty();
    world.sync();
    runUsersJob(world);
    for (int i = 0; i < roles.size(); i++) {
      assertThat(role(roles.get(i))).startsWith("login=t ");
      String database = i < databases.size() ? databases.get(i) : "postgres";
      assertCanConnect(world, roles.get(i), database);
      if (i < databases.size()) {
        assertThat(owner(database)).isEqualTo(roles.get(i));
      }
    }
    assertNothingLeaked();
  }

  @Test
  void createRoleCannotLeadToSuperuser() {
    int major = server.majorVersion();
    int version = Math.min(17, Math.max(13, major));
    ObjectNode parent =
        SpecReaderTest.parent(
            "cr",
            spec ->
                spec.put("postgresVersion", version)
                    .putArray("users")
                    .addObject()
                    .put("name", "cr-admin")
                    .putArray("options")
                    .add("CREATEROLE"));
    SpecReader.Result read = SpecReader.read(parent);
    if (major < SpecReader.CREATEROLE_SAFE_FROM) {
      // Refused on this version, and this is why: a CREATEROLE role grants itself a
      // superuser-equivalent role.
      assertThat(SpecReaderTest.fields(read)).containsExactly("spec.users[0].options");
      server.query("CREATE ROLE cr_probe LOGIN CREATEROLE PASSWORD 'cr-probe-password'");
      PostgresServer.Result escalated =
          server.psql(
              "cr_probe",
              "cr-probe-password",
              "postgres",
              "GRANT pg_execute_server_program TO cr_probe");
      server.query("DROP ROLE cr_probe");
      assertThat(escalated.exitCode()).as(escalated.output()).isZero();
      return;
    }
    assertThat(read.problems()).isEmpty();
    ObservedRequests world = new ObservedRequests("cr", (ObjectNode) parent.get("spec"));
    world.sync();
    runUsersJob(world);
    String password = secret(world, "cr-admin", "password");
    PostgresServer.Result grant =
        server.psql(
            "cr-admin", password, "postgres", "GRANT pg_execute_server_program TO \"cr-admin\"");
    assertThat(grant.exitCode()).isNotZero();
    assertThat(
            server
                .psql("cr-admin", password, "postgres", "ALTER ROLE \"cr-admin\" SUPERUSER")
                .exitCode())
        .isNotZero();
    assertThat(role("cr-admin")).contains("super=f");
  }

  // ---- helpers

  private ObservedRequests world(String cluster, Consumer<ObjectNode> spec) {
    ObjectNode given = Json.object();
    spec.accept(given);
    given.put("postgresVersion", Math.min(17, Math.max(13, server.majorVersion())));
    ObservedRequests world = new ObservedRequests(cluster, given);
    world.sources = sources(Map.of());
    return world;
  }

  /** Pinned time; a new secret each time one is asked for (as SecureRandom gives), unless {@code chosen} has it. */
  private static Sources sources(Map<String, String> chosen) {
    AtomicInteger made = new AtomicInteger();
    return new Sources() {
      @Override
      public Instant now() {
        return FixedSources.NOW;
      }

      @Override
      public String secret(String purpose, int length) {
        return chosen.getOrDefault(
            purpose, FixedSources.INSTANCE.secret(purpose + "#" + made.incrementAndGet(), length));
      }
    };
  }

  private static String usersJobName(ObservedRequests world) {
    return Names.of(RenderedUsersJob.of(world));
  }

  /** Runs the rendered Job against the server; remembers every password and verifier it handed over. */
  private void runUsersJob(ObservedRequests world) {
    RenderedUsersJob.run(world, server)
        .forEach(
            (name, value) -> {
              if (name.startsWith("VERIFIER_")) {
                secrets.add(value);
              }
            });
    world.observedSecrets().forEach(s -> SecretData.value(s, "password").ifPresent(secrets::add));
  }

  private static String secret(ObservedRequests world, String user, String key) {
    return SecretData.value(world.children.get("Secret/" + Names.userSecret(world.name, user)), key)
        .orElseThrow();
  }

  private static String role(String name) {
    return server
        .query(
            "SELECT format('login=%s super=%s createdb=%s createrole=%s replication=%s bypassrls=%s',"
                + " rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls)"
                + " FROM pg_roles WHERE rolname = '"
                + name
                + "'")
        .strip()
        .replace("true", "t")
        .replace("false", "f");
  }

  private static String owner(String database) {
    return server
        .query("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '" + database + "'")
        .strip();
  }

  private static String storedVerifier(String role) {
    return server.query("SELECT rolpassword FROM pg_authid WHERE rolname = '" + role + "'").strip();
  }

  /** Roles, options, verifiers, databases, owners and ACLs of one cluster's objects. */
  private static String catalogue(String prefix) {
    return server.query(
        "SELECT string_agg(x, E'\\n' ORDER BY x) FROM ("
            + " SELECT rolname || rolcanlogin || rolcreatedb || rolcreaterole || coalesce(rolpassword, '') AS x"
            + " FROM pg_authid WHERE rolname LIKE '"
            + prefix
            + "%'"
            + " UNION ALL SELECT datname || pg_get_userbyid(datdba) || coalesce(datacl::text, '') FROM pg_database"
            + " WHERE datname LIKE '"
            + prefix
            + "%') objects");
  }

  private void assertCanConnect(ObservedRequests world, String user, String database) {
    PostgresServer.Result result =
        server.psql(user, secret(world, user, "password"), database, "SELECT current_user");
    assertThat(result.exitCode())
        .as("%s connecting to %s: %s", user, database, result.output())
        .isZero();
    assertThat(result.output().strip()).isEqualTo(user);
  }

  private void assertCannotConnect(
      ObservedRequests world, String user, String database, String why) {
    PostgresServer.Result result =
        server.psql(user, secret(world, user, "password"), database, "SELECT 1");
    assertThat(result.exitCode()).as("%s connecting to %s", user, database).isNotZero();
    assertThat(result.output()).contains(why);
  }

  /** No password and no verifier in the server's log or in pg_stat_statements. */
  private void assertNothingLeaked() {
    String log = server.log();
    String statements = server.query("SELECT string_agg(query, E'\\n') FROM pg_stat_statements");
    assertThat(secrets).isNotEmpty();
    for (String secret : secrets) {
      assertThat(log).as("server log").doesNotContain(secret);
      assertThat(statements).as("pg_stat_statements").doesNotContain(secret);
    }
  }
}
