package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Resources;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The openssl commands of docs/security.md, run as written: the files they make secure a real server, and a
 * client holding Metacontroller's side of them (client certificate, CA bundle, token) gets its answer.
 */
class SecurityDocsExampleIT {
  @TempDir Path dir;

  @Test
  void theDocumentedCertificatesAndTokenWork() throws Exception {
    String doc = Files.readString(Resources.projectDir().resolve("docs/security.md"));
    String block = doc.substring(doc.indexOf("```sh\n# A CA"));
    String commands = block.substring("```sh\n".length(), block.indexOf("\nkubectl "));
    Process shell =
        new ProcessBuilder("bash", "-euo", "pipefail", "-c", commands)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(shell.getInputStream().readAllBytes());
    assertThat(shell.waitFor()).as(output).isZero();

    HookServer server =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withSecurity(
                        dir.resolve("token"),
                        new ServerConfig.Tls(
                            dir.resolve("tls.crt"), dir.resolve("tls.key"), dir.resolve("ca.crt")),
                        Duration.ofSeconds(10)),
                Catalog.controllers())
            .start();
    try {
      SSLContext tls =
          PemFiles.clientContext(
              dir.resolve("ca.crt"), dir.resolve("client.crt"), dir.resolve("client.key"));
      // The certificate names the Service: connect to localhost but say metahooks.metahooks.svc, as
      // a
      // client inside the cluster would (Jetty refuses a server name the certificate does not
      // cover).
      byte[] body =
          Files.readAllBytes(
              Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
      try (SSLSocket socket =
          (SSLSocket) tls.getSocketFactory().createSocket("localhost", server.port())) {
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName("metahooks.metahooks.svc")));
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /hello-world/sync HTTP/1.1\r\nHost: metahooks.metahooks.svc\r\n"
                    + "Content-Type: application/json\r\nConnection: close\r\n"
                    + "Authorization: Bearer "
                    + Files.readString(dir.resolve("token")).trim()
                    + "\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(reply).startsWith("HTTP/1.1 200").contains("Hello, Your Name!");
      }
    } finally {
      server.close();
    }
  }
}
