package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.children.pod.TlsMounts;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.TestCertificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rendered TLS settings on a real PostgreSQL: the server serves the files the StatefulSet hands to Spilo
 * ({@code SSL_CERTIFICATE_FILE}, {@code SSL_PRIVATE_KEY_FILE}: the TLS Secret's keys, which Spilo turns into
 * ssl_cert_file and ssl_key_file), and a client connects with the user Secret's {@code uri} as rendered
 * ({@code sslmode=verify-full}, the host name of the primary Service, {@code sslrootcert} = the Secret's
 * {@code ca.crt}). Only what cannot be local changes: the port, the CA's path, and {@code hostaddr=127.0.0.1}
 * (libpq still verifies the certificate against the URI's host name). A certificate for another name or from
 * another CA is refused; a renewed one is taken on a reload, without a restart.
 */
class TlsPostgresIT {
  private static final String USER = "tlsclient";
  private static PostgresServer server;
  private static TestCertificates certs;
  private static List<Path> original;
  private static ObjectNode userSecret;
  private static Map<String, String> podEnv;

  @BeforeAll
  static void render() {
    server = PostgresServer.shared();
    certs = TestCertificates.create();
    original = server.currentCertificate(certs.dir().resolve("original"));
    certs.ca("ca");
    certs.ca("other-ca");
    List<String> names =
        List.of("orders-rw.shop.svc", "orders-ro.shop.svc", "*.orders-hl.shop.svc");
    certs.server("server", "ca", names, 2);
    certs.server("renewed", "ca", names, 2);
    certs.server("elsewhere", "ca", List.of("orders-rw.elsewhere.svc"), 2);
    certs.server("foreign", "other-ca", names, 2);

    ObjectNode spec = Json.object().put("instances", 1);
    spec.putObject("tls").put("secretName", TlsWorlds.SECRET);
    spec.putArray("users").addObject().put("name", USER).putArray("databases").add(USER);
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.relatedSecrets.put(TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> {}));
    world.sync();
    userSecret = world.children.get("Secret/orders." + USER);
    podEnv = TlsWorlds.env(world.statefulSet().at("/spec/template/spec/containers/0"));
    String verifier = SecretData.value(userSecret, Secrets.VERIFIER).orElseThrow();
    server.query("DROP DATABASE IF EXISTS " + USER);
    server.query("DROP ROLE IF EXISTS " + USER);
    server.query("CREATE ROLE " + USER + " LOGIN PASSWORD '" + verifier + "'");
    server.query("CREATE DATABASE " + USER + " OWNER " + USER);
  }

  @AfterAll
  static void restore() {
    if (server != null && original != null) {
      server.serveCertificate(original.get(0), original.get(1));
      server.query("DROP DATABASE IF EXISTS " + USER);
      server.query("DROP ROLE IF EXISTS " + USER);
    }
  }

  /** Serves what the pod would: the file SSL_CERTIFICATE_FILE / SSL_PRIVATE_KEY_FILE name in the mounted Secret. */
  private static void serve(String certificate) throws IOException {
    Path mount = Files.createDirectories(certs.dir().resolve("mount-" + certificate));
    Files.writeString(mount.resolve(TlsSpec.CERT), certs.pem(certificate + ".crt"));
    Files.writeString(mount.resolve(TlsSpec.KEY), certs.pem(certificate + ".key"));
    server.serveCertificate(
        mount.resolve(podEnv.get("SSL_CERTIFICATE_FILE").substring(Spilo.TLS_MOUNT.length() + 1)),
        mount.resolve(podEnv.get("SSL_PRIVATE_KEY_FILE").substring(Spilo.TLS_MOUNT.length() + 1)));
  }

  /** psql with the user Secret's URI as rendered, but for the local port, CA path and address. */
  private static PostgresServer.Result connect() throws IOException {
    String uri = SecretData.value(userSecret, "uri").orElseThrow();
    Path ca = certs.dir().resolve("client-ca.crt");
    Files.writeString(
        ca, SecretData.value(userSecret, TlsSpec.CA).orElseThrow(), StandardCharsets.US_ASCII);
    assertThat(uri)
        .contains(
            "@orders-rw.shop.svc:5432/",
            "sslmode=verify-full",
            "sslrootcert=" + TlsMounts.CLIENT_CA_PATH);
    String local =
        uri.replace(":5432/", ":" + server.port() + "/")
                .replace(TlsMounts.CLIENT_CA_PATH, ca.toString())
            + "&hostaddr=127.0.0.1&connect_timeout=10";
    return PostgresServer.exec(
        List.of(
            server.bin().resolve("psql").toString(),
            "-X",
            "-At",
            "-d",
            local,
            "-c",
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"),
        Map.of(),
        Duration.ofMinutes(1));
  }

  /** Polls until a connection attempt gives what is expected: the server takes new files on its reload. */
  private static PostgresServer.Result awaitConnection(
      String what, Predicate<PostgresServer.Result> expected) throws IOException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    PostgresServer.Result result = connect();
    while (!expected.test(result) && Instant.now().isBefore(deadline)) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      result = connect();
    }
    assertThat(expected.test(result)).as(what + ": " + result.output()).isTrue();
    return result;
  }

  @Test
  void verifyFullAcceptsTheServerOnlyWithTheRightNameAndCaAndARenewalNeedsNoRestart()
      throws IOException {
    String started = server.query("SELECT pg_postmaster_start_time()");

    serve("server");
    PostgresServer.Result accepted =
        awaitConnection("the rendered URI connects", r -> r.exitCode() == 0);
    assertThat(accepted.output().strip()).isEqualTo("t");

    serve("elsewhere");
    PostgresServer.Result wrongName =
        awaitConnection("refused for another host name", r -> r.exitCode() != 0);
    assertThat(wrongName.output()).contains("does not match host name \"orders-rw.shop.svc\"");

    serve("foreign");
    PostgresServer.Result wrongCa =
        awaitConnection(
            "refused for another CA",
            r -> r.exitCode() != 0 && !r.output().contains("does not match host name"));
    assertThat(wrongCa.output()).contains("certificate verify failed");

    serve("renewed");
    awaitConnection(
        "a renewed certificate of the same CA is served after a reload", r -> r.exitCode() == 0);
    assertThat(server.query("SELECT pg_postmaster_start_time()"))
        .as("no restart")
        .isEqualTo(started);
  }
}
