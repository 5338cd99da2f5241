package dev.metahooks.controllers.postgres.children.pooler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.RenderedUsersJob;
import dev.metahooks.controllers.postgres.TlsWorlds;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.access.PoolerAccess;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.controllers.postgres.children.pod.TlsMounts;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.LocalDaemon;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pooler as rendered, run for real: the users Job's SQL creates the pooler role and its lookup function in
 * a real PostgreSQL, then Debian's PgBouncer starts with the rendered pgbouncer.ini (only the server's address,
 * the listening address and the file paths pointed at local ones), the auth file from the rendered Secret and a
 * certificate made by the rendered init container's script, and clients log in through it with the passwords of
 * their own Secrets, as their {@code pooler-uri} says.
 */
class PoolerPgBouncerIT {
  private static PostgresServer server;
  private static Path pgbouncer;

  @BeforeAll
  static void start() {
    pgbouncer = LocalDaemon.binary("pgbouncer", "pgbouncer");
    server = PostgresServer.shared();
  }

  @Test
  void clientsLogInThroughTheRenderedPgBouncerWithAuthQuery() throws Exception {
    ObservedRequests world = world("pool", "transaction");
    world.sync();
    RenderedUsersJob.run(world, server);
    try (LocalDaemon bouncer = startPgBouncer(world)) {
      int port = port(bouncer);
      // Through the pooler-uri of each user's Secret, host and port pointed at the local PgBouncer.
      assertThat(
              throughPooler(
                  world, "pool-app", port, "SELECT current_user || ' ' || current_database()"))
          .isEqualTo("pool-app pool_app");
      assertThat(
              throughPooler(
                  world, "pool-bi", port, "SELECT current_user || ' ' || current_database()"))
          .isEqualTo("pool-bi postgres");
      // The database privileges stay the server's: pool-bi may connect to pool_app, which it lists
      // in connect.
      PostgresServer.Result other =
          psql(
              uri(world, "pool-bi", port).replace("/postgres?", "/pool_app?"),
              "SELECT current_database()");
      assertThat(other.output().strip()).as(other.output()).isEqualTo("pool_app");
      // The server saw PgBouncer, not the client: the connection came through the pool (over TLS).
      assertThat(
              throughPooler(
                  world,
                  "pool-app",
                  port,
                  "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"))
          .isEqualTo("t");
      // PgBouncer, not the client, holds the server connection: its application name carries the
      // client's address.
      assertThat(throughPooler(world, "pool-app", port, "SHOW application_name"))
          .contains("127.0.0.1");

      // A wrong password, the superuser and the pooler's own role: refused by PgBouncer.
      assertThat(
              psql(
                      uri(world, "pool-app", port).replace(password(world, "pool-app"), "wrong"),
                      "SELECT 1")
                  .exitCode())
          .isNotZero();
      String superuserUri =
          "postgresql://postgres:"
              + server.superuserPassword()
              + "@127.0.0.1:"
              + port
              + "/postgres?sslmode=require";
      PostgresServer.Result superuser = psql(superuserUri, "SELECT 1");
      assertThat(superuser.exitCode()).as(superuser.output()).isNotZero();
      // Plain TCP: PgBouncer asks every client for TLS.
      assertThat(
              psql(
                      uri(world, "pool-app", port).replace("sslmode=require", "sslmode=disable"),
                      "SELECT 1")
                  .exitCode())
          .isNotZero();
    }
  }

  /**
   * With {@code spec.tls}: PgBouncer serves the TLS Secret's certificate, and a client connecting with its
   * {@code pooler-uri} as rendered ({@code verify-full}, the Secret's {@code ca.crt}) gets through to a server that
   * PgBouncer verifies against the same CA ({@code server_tls_sslmode = verify-full}). A client trusting another CA
   * is refused, and so is a server whose certificate another CA signed, or one for another name.
   */
  @Test
  void withTlsEveryHopVerifiesItsPeer() throws Exception {
    TestCertificates certs = TestCertificates.create();
    List<Path> original = server.currentCertificate(certs.dir().resolve("original"));
    certs.ca("ca");
    certs.ca("other-ca");
    // The server's certificate names the address PgBouncer dials here (the rendered host, pointed
    // at loopback).
    List<String> names = List.of("tls-rw.shop.svc", "tls-pooler.shop.svc", "127.0.0.1");
    certs.server("server", "ca", names, 2);
    certs.server("foreign", "other-ca", names, 2);
    certs.server("elsewhere", "ca", List.of("tls-rw.shop.svc", "tls-pooler.shop.svc"), 2);
    ObservedRequests world = world("tls", "transaction");
    world.edit(spec -> spec.putObject("tls").put("secretName", TlsWorlds.SECRET));
    world.relatedSecrets.put(TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> {}));
    world.sync();
    String config = world.children.get("ConfigMap/tls-pooler").at("/data/pgbouncer.ini").asText();
    assertThat(config)
        .contains(
            "server_tls_sslmode = verify-full\nserver_tls_ca_file = "
                + Poolers.TLS_DIR
                + "/ca.crt");
    assertThat(
            world
                .children
                .get("Deployment/tls-pooler")
                .at("/spec/template/spec")
                .has("initContainers"))
        .as("no self-signed certificate")
        .isFalse();
    assertThat(
            SecretData.value(secret(world, Names.userSecret("tls", "tls-app")), "pooler-uri")
                .orElseThrow())
        .endsWith("?sslmode=verify-full&sslrootcert=" + TlsMounts.CLIENT_CA_PATH);
    try {
      server.serveCertificate(certs.dir().resolve("server.crt"), certs.dir().resolve("server.key"));
      RenderedUsersJob.run(world, server);
      Path clientCa =
          Files.writeString(
              certs.dir().resolve("client-ca.crt"),
              SecretData.value(secret(world, Names.userSecret("tls", "tls-app")), TlsSpec.CA)
                  .orElseThrow());
      try (LocalDaemon bouncer = startPgBouncer(world, dir -> mountTlsSecret(world, dir))) {
        int port = port(bouncer);
        PostgresServer.Result verified =
            psql(
                verifyingUri(world, port, clientCa),
                "SELECT ssl FROM pg_stat_ssl " + "WHERE pid = pg_backend_pid()");
        assertThat(verified.exitCode()).as(verified.output()).isZero();
        assertThat(verified.output().strip()).as("the server hop is TLS too").isEqualTo("t");
        PostgresServer.Result wrongCa =
            psql(verifyingUri(world, port, certs.dir().resolve("other-ca.crt")), "SELECT 1");
        assertThat(wrongCa.exitCode()).isNotZero();
        assertThat(wrongCa.output()).contains("certificate verify failed");
      }
      for (String refused : List.of("foreign", "elsewhere")) {
        server.serveCertificate(
            certs.dir().resolve(refused + ".crt"), certs.dir().resolve(refused + ".key"));
        try (LocalDaemon bouncer = startPgBouncer(world, dir -> mountTlsSecret(world, dir))) {
          PostgresServer.Result result =
              psql(verifyingUri(world, port(bouncer), clientCa), "SELECT 1");
          assertThat(result.exitCode())
              .as("a server with the %s certificate: %s", refused, result.output())
              .isNotZero();
        }
      }
    } finally {
      server.serveCertificate(original.get(0), original.get(1));
    }
  }

  /** The TLS Secret's keys as the pooler's volume mounts them (its items). */
  private static void mountTlsSecret(ObservedRequests world, Path dir) {
    ObjectNode tlsSecret = world.relatedSecrets.get(TlsWorlds.SECRET);
    JsonNode volume = null;
    for (JsonNode candidate :
        world
            .children
            .get("Deployment/" + Names.pooler(world.name))
            .at("/spec/template/spec/volumes")) {
      volume = candidate.path("name").asText().equals("tls") ? candidate : volume;
    }
    assertThat(volume.at("/secret/secretName").asText()).isEqualTo(TlsWorlds.SECRET);
    for (JsonNode item : volume.at("/secret/items")) {
      try {
        Files.writeString(
            dir.resolve(item.path("path").asText()),
            SecretData.value(tlsSecret, item.path("key").asText()).orElseThrow());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** The pooler-uri as rendered, only the port, the CA's path and the address (hostaddr) local. */
  private static String verifyingUri(ObservedRequests world, int port, Path ca) {
    String uri =
        SecretData.value(
                secret(world, Names.userSecret(world.name, world.name + "-app")), "pooler-uri")
            .orElseThrow();
    return uri.replace(":" + PoolerAccess.PORT + "/", ":" + port + "/")
            .replace(TlsMounts.CLIENT_CA_PATH, ca.toString())
        + "&hostaddr=127.0.0.1&connect_timeout=10";
  }

  @Test
  void thePoolerRoleCanOnlyCallTheLookupFunction() {
    ObservedRequests world = world("lookup", "session");
    world.sync();
    RenderedUsersJob.run(world, server);
    String poolerPassword =
        SecretData.value(secret(world, Names.poolerSecret("lookup")), "password").orElseThrow();
    PostgresServer.Result lookup =
        server.psql(
            ServiceRoles.POOLER,
            poolerPassword,
            "lookup_app",
            Poolers.LOOKUP_QUERY.replace("$1", "'lookup-app'"));
    assertThat(lookup.exitCode()).as(lookup.output()).isZero();
    assertThat(lookup.output()).startsWith("lookup-app|SCRAM-SHA-256$4096:");
    assertThat(
            server
                .psql(
                    ServiceRoles.POOLER,
                    poolerPassword,
                    "lookup_app",
                    Poolers.LOOKUP_QUERY.replace("$1", "'postgres'"))
                .output())
        .isBlank();
    assertThat(
            server
                .psql(
                    ServiceRoles.POOLER,
                    poolerPassword,
                    "postgres",
                    "SELECT rolpassword FROM pg_authid")
                .output())
        .contains("permission denied");
    // Nobody else may call it: an application user gets "permission denied" for the schema.
    String appPassword = password(world, "lookup-app");
    assertThat(
            server
                .psql(
                    "lookup-app",
                    appPassword,
                    "lookup_app",
                    Poolers.LOOKUP_QUERY.replace("$1", "'postgres'"))
                .output())
        .contains("permission denied");
    assertThat(
            server
                .query(
                    "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls"
                        + " FROM pg_roles WHERE rolname = '"
                        + ServiceRoles.POOLER
                        + "'")
                .strip())
        .isEqualTo("f");
  }

  @Test
  void turningThePoolerOffMakesItsRoleNologinAndKeepsItsSecret() {
    ObservedRequests world = world("off", "session");
    world.sync();
    RenderedUsersJob.run(world, server);
    String job = Names.of(RenderedUsersJob.of(world));
    ObjectNode poolerSecret = secret(world, Names.poolerSecret("off")).deepCopy();
    world.edit(spec -> spec.withObjectProperty("pooler").put("enabled", false));
    world.sync();
    assertThat(world.children)
        .doesNotContainKeys(
            "Deployment/off-pooler",
            "Service/off-pooler",
            "ConfigMap/off-pooler",
            "PodDisruptionBudget/off.pooler");
    assertThat(Names.of(RenderedUsersJob.of(world))).isNotEqualTo(job);
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query(
                    "SELECT rolcanlogin FROM pg_roles WHERE rolname = '"
                        + ServiceRoles.POOLER
                        + "'")
                .strip())
        .isEqualTo("f");
    assertThat(secret(world, Names.poolerSecret("off")).path("data"))
        .isEqualTo(poolerSecret.path("data"));
    world.edit(spec -> spec.withObjectProperty("pooler").put("enabled", true));
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query(
                    "SELECT rolcanlogin FROM pg_roles WHERE rolname = '"
                        + ServiceRoles.POOLER
                        + "'")
                .strip())
        .isEqualTo("t");
  }

  // ---- helpers

  private static ObservedRequests world(String cluster, String mode) {
    ObjectNode spec =
        Json.object().put("postgresVersion", Math.min(17, Math.max(13, server.majorVersion())));
    spec.putObject("pooler").put("instances", 2).put("mode", mode);
    spec.putArray("users")
        .addObject()
        .put("name", cluster + "-app")
        .putArray("databases")
        .add(cluster + "_app");
    spec.withArray("users")
        .addObject()
        .put("name", cluster + "-bi")
        .putArray("connect")
        .add(cluster + "_app");
    return new ObservedRequests(cluster, spec);
  }

  /**
   * PgBouncer with the rendered configuration: the server's address and the listening one, and the directories of
   * the auth file and the certificate, pointed at local ones; every other line as rendered.
   */
  private static LocalDaemon startPgBouncer(ObservedRequests world) throws Exception {
    return startPgBouncer(world, dir -> runCertificateScript(world, dir));
  }

  /** PgBouncer as above, with {@code certificates} putting its TLS files into its directory. */
  private static LocalDaemon startPgBouncer(
      ObservedRequests world, java.util.function.Consumer<Path> certificates) throws Exception {
    Path dir = LocalDaemon.directory("pgbouncer", world.name + "-");
    String config =
        world
            .children
            .get("ConfigMap/" + Names.pooler(world.name))
            .path("data")
            .path(Poolers.CONFIG_FILE)
            .asText();
    int port = LocalDaemon.freePort();
    String local =
        config
            .replace(
                "host="
                    + Names.serviceHost(
                        Names.primaryService(world.name), ObservedRequests.NAMESPACE)
                    + " port="
                    + Spilo.POSTGRES_PORT,
                "host=127.0.0.1 port=" + server.port())
            .replace("listen_addr = 0.0.0.0", "listen_addr = 127.0.0.1")
            .replace("listen_port = " + PoolerAccess.PORT, "listen_port = " + port)
            .replace(Poolers.AUTH_DIR, dir.toString())
            .replace(Poolers.TLS_DIR, dir.toString());
    assertThat(local)
        .doesNotContain("/etc/pgbouncer")
        .contains("auth_query = " + Poolers.LOOKUP_QUERY);
    Files.writeString(dir.resolve(Poolers.CONFIG_FILE), local);
    Files.writeString(
        dir.resolve(PoolerAccess.AUTH_FILE),
        SecretData.value(secret(world, Names.poolerSecret(world.name)), PoolerAccess.AUTH_FILE)
            .orElseThrow());
    certificates.accept(dir);
    LocalDaemon bouncer =
        LocalDaemon.start(
            dir,
            "pgbouncer",
            List.of(pgbouncer.toString(), dir.resolve(Poolers.CONFIG_FILE).toString()),
            Map.of());
    bouncer.awaitListening(port);
    return bouncer;
  }

  /** The init container as the kubelet starts it, with the certificate directory pointed at the local one. */
  private static void runCertificateScript(ObservedRequests world, Path dir) {
    Kubelet.Container init =
        RenderedContainers.of(
            world,
            world.children.get("Deployment/" + Names.pooler(world.name)),
            "certificate",
            List.of());
    assertThat(init.environment()).containsEntry("TLS_DIR", Poolers.TLS_DIR);
    PostgresServer.Result result =
        RenderedContainers.run(init, Map.of("TLS_DIR", dir.toString()), Duration.ofMinutes(1));
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(dir.resolve("tls.crt")).exists();
  }

  private static int port(LocalDaemon bouncer) throws IOException {
    String config = Files.readString(bouncer.dir().resolve(Poolers.CONFIG_FILE));
    return Integer.parseInt(config.replaceAll("(?s).*listen_port = (\\d+).*", "$1"));
  }

  private static ObjectNode secret(ObservedRequests world, String name) {
    return world.children.get("Secret/" + name);
  }

  private static String password(ObservedRequests world, String user) {
    return SecretData.value(secret(world, Names.userSecret(world.name, user)), "password")
        .orElseThrow();
  }

  /** The user's pooler-uri, the pooler's host and port replaced by the local PgBouncer's. */
  private static String uri(ObservedRequests world, String user, int port) {
    String uri =
        SecretData.value(secret(world, Names.userSecret(world.name, user)), "pooler-uri")
            .orElseThrow();
    String host =
        Names.serviceHost(Names.pooler(world.name), ObservedRequests.NAMESPACE)
            + ":"
            + PoolerAccess.PORT;
    assertThat(uri).contains("@" + host + "/");
    return uri.replace(host, "127.0.0.1:" + port);
  }

  private static String throughPooler(ObservedRequests world, String user, int port, String sql) {
    PostgresServer.Result result = psql(uri(world, user, port), sql);
    assertThat(result.exitCode()).as("%s through the pooler: %s", user, result.output()).isZero();
    return result.output().strip();
  }

  private static PostgresServer.Result psql(String uri, String sql) {
    return PostgresServer.exec(
        List.of(
            server.bin().resolve("psql").toString(),
            "-X",
            "-q",
            "-At",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            uri,
            "-c",
            sql),
        Map.of("PGCONNECT_TIMEOUT", "10"),
        Duration.ofMinutes(1));
  }
}
