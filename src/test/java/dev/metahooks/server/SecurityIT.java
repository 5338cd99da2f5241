package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.PemKeyStores;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Metacontroller's endpoint configs can ask of a hook server: a bearer token, HTTPS with a CA bundle,
 * client certificates. Certificates are made at test time with openssl.
 */
class SecurityIT {
  private static final byte[] REQUEST =
      Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
  private static final Duration CHECK = Duration.ofMillis(100);

  @TempDir Path dir;
  private HookServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HookServer start(Path token, ServerConfig.Tls tls) {
    server =
        new HookServer(
                ServerConfig.defaults().withPort(0).withSecurity(token, tls, CHECK),
                Catalog.controllers())
            .start();
    return server;
  }

  private static HttpResponse<String> send(HttpClient client, String uri, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(uri))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(REQUEST));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void bearerTokenGuardsHooksButNotProbes() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
    start(token, null);
    HttpClient client = HttpClient.newHttpClient();
    String hook = "http://localhost:" + server.port() + "/hello-world/sync";
    HttpResponse<String> none = send(client, hook, null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.body())
        .isEqualTo("{\"error\":\"unauthorized\",\"message\":\"missing or invalid credentials\"}");
    assertThat(send(client, hook, "Bearer wrong").statusCode()).isEqualTo(401);
    assertThat(send(client, hook, "Basic czNjcmV0LXRva2Vu").statusCode()).isEqualTo(401);
    assertThat(send(client, hook, "Bearer s3cret-token").statusCode()).isEqualTo(200);
    // Metacontroller sends the endpoint config's type as written; the scheme is case-insensitive
    // (RFC 9110).
    assertThat(send(client, hook, "bearer s3cret-token").statusCode()).isEqualTo(200);
    assertThat(send(client, hook, "BEARER  s3cret-token").statusCode()).isEqualTo(200);
    assertThat(send(client, hook, "Bearers3cret-token").statusCode()).isEqualTo(401);
    assertThat(send(client, hook, "Token s3cret-token").statusCode()).isEqualTo(401);
    assertThat(send(client, hook, "Bearer S3CRET-TOKEN").statusCode())
        .as("the token itself is exact")
        .isEqualTo(401);
    HttpResponse<String> health =
        client.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/healthz"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
  }

  @Test
  void aRotatedTokenIsPickedUpWithoutRestart() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "first");
    start(token, null);
    HttpClient client = HttpClient.newHttpClient();
    String hook = "http://localhost:" + server.port() + "/hello-world/sync";
    assertThat(send(client, hook, "Bearer first").statusCode()).isEqualTo(200);
    Files.writeString(token, "second-and-longer");
    awaitStatus(() -> send(client, hook, "Bearer second-and-longer").statusCode(), 200);
    assertThat(send(client, hook, "Bearer first").statusCode()).isEqualTo(401);
  }

  @Test
  void anEmptyTokenFileIsRefusedAtStart() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "  \n");
    assertThatThrownBy(() -> start(token, null)).hasMessageContaining("is empty");
  }

  @Test
  void httpsWithACaBundle() throws Exception {
    Certificates certs = new Certificates(dir);
    start(null, new ServerConfig.Tls(certs.serverCert, certs.serverKey, null));
    HttpClient client = HttpClient.newBuilder().sslContext(certs.clientContext(false)).build();
    HttpResponse<String> reply =
        send(client, "https://localhost:" + server.port() + "/hello-world/sync", null);
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.sslSession()).isPresent();
  }

  @Test
  void clientCertificatesAreRequiredWhenAClientCaIsSet() throws Exception {
    Certificates certs = new Certificates(dir);
    start(null, new ServerConfig.Tls(certs.serverCert, certs.serverKey, certs.caCert));
    String hook = "https://localhost:" + server.port() + "/hello-world/sync";
    HttpClient withCert = HttpClient.newBuilder().sslContext(certs.clientContext(true)).build();
    assertThat(send(withCert, hook, null).statusCode()).isEqualTo(200);
    HttpClient withoutCert = HttpClient.newBuilder().sslContext(certs.clientContext(false)).build();
    assertThatThrownBy(() -> send(withoutCert, hook, null)).isInstanceOf(IOException.class);
  }

  @Test
  void aRenewedCertificateIsServedWithoutRestart() throws Exception {
    Certificates certs = new Certificates(dir);
    start(null, new ServerConfig.Tls(certs.serverCert, certs.serverKey, null));
    String hook = "https://localhost:" + server.port() + "/hello-world/sync";
    String before = peerSerial(certs, hook);
    certs.renewServer();
    awaitStatus(() -> peerSerial(certs, hook).equals(before) ? 0 : 1, 1);
  }

  @Test
  void probesAndMetricsOnAPlainManagementPortWhileHooksNeedAClientCertificate() throws Exception {
    Certificates certs = new Certificates(dir);
    int management;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      management = socket.getLocalPort();
    }
    server =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withManagementPort(management)
                    .withSecurity(
                        null,
                        new ServerConfig.Tls(certs.serverCert, certs.serverKey, certs.caCert),
                        CHECK),
                Catalog.controllers())
            .start();
    HttpClient plain = HttpClient.newHttpClient();
    for (String path : List.of("/healthz", "/readyz", "/metrics")) {
      assertThat(
              plain
                  .send(
                      HttpRequest.newBuilder(URI.create("http://localhost:" + management + path))
                          .build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .as(path)
          .isEqualTo(200);
    }
    HttpResponse<String> hook =
        send(plain, "http://localhost:" + management + "/hello-world/sync", null);
    assertThat(hook.statusCode()).isEqualTo(404);
    HttpClient withCert = HttpClient.newBuilder().sslContext(certs.clientContext(true)).build();
    assertThat(
            send(withCert, "https://localhost:" + server.port() + "/hello-world/sync", null)
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aPkcs1RsaKeyIsAccepted() throws Exception {
    Path pkcs1 = dir.resolve("rsa.key");
    Path cert = dir.resolve("rsa.crt");
    Certificates.openssl(
        dir,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        dir.resolve("pk8.key").toString(),
        "-out",
        cert.toString(),
        "-days",
        "2",
        "-subj",
        "/CN=localhost");
    Certificates.openssl(dir, "rsa", "-in", "pk8.key", "-traditional", "-out", pkcs1.toString());
    assertThat(Files.readString(pkcs1)).contains("BEGIN RSA PRIVATE KEY");
    assertThat(PemKeyStores.keyStore(cert, pkcs1).isKeyEntry("server")).isTrue();
  }

  @Test
  void aKeyThatDoesNotBelongToTheCertificateIsRefused() throws Exception {
    Certificates certs = new Certificates(dir);
    assertThatThrownBy(
            () -> start(null, new ServerConfig.Tls(certs.serverCert, certs.clientKey, null)))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "the key "
                + certs.clientKey
                + " does not belong to the certificate "
                + certs.serverCert);
  }

  @Test
  void aClientCertificateThatMayNotAuthenticateClientsIsRefused() throws Exception {
    Certificates certs = new Certificates(dir);
    start(null, new ServerConfig.Tls(certs.serverCert, certs.serverKey, certs.caCert));
    String hook = "https://localhost:" + server.port() + "/hello-world/sync";
    Path key = dir.resolve("server-only.key");
    Path cert = dir.resolve("server-only.crt");
    certs.issue("server-only", key, cert, "/CN=metacontroller", "extendedKeyUsage=serverAuth");
    HttpClient serverOnly =
        HttpClient.newBuilder().sslContext(certs.clientContext(cert, key)).build();
    assertThatThrownBy(() -> send(serverOnly, hook, null)).isInstanceOf(IOException.class);
    HttpClient client = HttpClient.newBuilder().sslContext(certs.clientContext(true)).build();
    assertThat(send(client, hook, null).statusCode())
        .as("the same CA, extendedKeyUsage=clientAuth")
        .isEqualTo(200);
  }

  static String peerSerial(Certificates certs, String uri) throws Exception {
    HttpClient fresh = HttpClient.newBuilder().sslContext(certs.clientContext(false)).build();
    HttpResponse<String> reply = send(fresh, uri, null);
    return ((X509Certificate) reply.sslSession().orElseThrow().getPeerCertificates()[0])
        .getSerialNumber()
        .toString();
  }

  private interface Probe {
    int status() throws Exception;
  }

  private static void awaitStatus(Probe probe, int expected) throws Exception {
    Poll.until("status " + expected, () -> probe.status() == expected);
  }

  /** A CA, a server certificate for localhost and a client certificate (EC P-256, quick to make), as PEM files. */
  static final class Certificates {
    final Path dir;
    final Path caCert;
    final Path caKey;
    final Path serverCert;
    final Path serverKey;
    final Path clientCert;
    final Path clientKey;

    Certificates(Path dir) throws Exception {
      this.dir = dir;
      caKey = dir.resolve("ca.key");
      caCert = dir.resolve("ca.crt");
      openssl(
          dir,
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-keyout",
          caKey.toString(),
          "-out",
          caCert.toString(),
          "-days",
          "2",
          "-subj",
          "/CN=metahooks-test-ca");
      serverKey = dir.resolve("tls.key");
      serverCert = dir.resolve("tls.crt");
      issue(
          "server",
          serverKey,
          serverCert,
          "/CN=localhost",
          "subjectAltName=DNS:localhost,IP:127.0.0.1");
      clientKey = dir.resolve("client.key");
      clientCert = dir.resolve("client.crt");
      issue("client", clientKey, clientCert, "/CN=metacontroller", "extendedKeyUsage=clientAuth");
    }

    /** Writes a new server key and certificate next to the old ones, then swaps them in. */
    void renewServer() throws Exception {
      Path key = dir.resolve("next.key");
      Path cert = dir.resolve("next.crt");
      issue("next", key, cert, "/CN=localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1");
      Files.move(key, serverKey, StandardCopyOption.REPLACE_EXISTING);
      Files.move(cert, serverCert, StandardCopyOption.REPLACE_EXISTING);
    }

    void issue(String name, Path key, Path cert, String subject, String extension)
        throws Exception {
      Path csr = dir.resolve(name + ".csr");
      Path ext = Files.writeString(dir.resolve(name + ".ext"), extension + "\n");
      openssl(
          dir,
          "req",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-keyout",
          key.toString(),
          "-out",
          csr.toString(),
          "-subj",
          subject);
      openssl(
          dir,
          "x509",
          "-req",
          "-in",
          csr.toString(),
          "-CA",
          caCert.toString(),
          "-CAkey",
          caKey.toString(),
          "-CAcreateserial",
          "-out",
          cert.toString(),
          "-days",
          "2",
          "-extfile",
          ext.toString());
    }

    SSLContext clientContext(boolean withCertificate) throws Exception {
      return withCertificate ? clientContext(clientCert, clientKey) : clientContext(null, null);
    }

    /** A client context that trusts the CA and presents {@code cert} (none when null). */
    SSLContext clientContext(Path cert, Path key) {
      return PemFiles.clientContext(caCert, cert, key);
    }

    static void openssl(Path dir, String... args) throws Exception {
      List<String> command = new ArrayList<>(List.of("openssl"));
      command.addAll(List.of(args));
      Process process =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor() != 0) {
        throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
      }
    }
  }
}
