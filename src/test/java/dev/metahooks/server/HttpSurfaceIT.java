package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.server.config.ServerConfig;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP surface over TLS, with certificates made by openssl. */
class HttpSurfaceIT {
  @Test
  void aTlsRequestForAnotherHostIsJson(@TempDir Path dir) throws Exception {
    SecurityIT.Certificates certs = new SecurityIT.Certificates(dir);
    HookServer tls =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withSecurity(
                        null,
                        new ServerConfig.Tls(certs.serverCert, certs.serverKey, null),
                        Duration.ofSeconds(10)),
                List.of())
            .start();
    try (Socket socket =
        certs.clientContext(false).getSocketFactory().createSocket("localhost", tls.port())) {
      socket.setSoTimeout(5000);
      // The certificate is for localhost; Jetty refuses a Host it does not cover ("Invalid SNI").
      socket
          .getOutputStream()
          .write(
              "GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      String reply =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(reply).startsWith("HTTP/1.1 400").contains("Content-Type: application/json");
      assertThat(HttpSurfaceTest.body(reply).path("message").asText()).isEqualTo("Invalid SNI");
    } finally {
      tls.close();
    }
  }
}
