package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.metahooks.testing.MissingComponent;
import dev.metahooks.testing.PostgresServer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An HTTPS stand-in for the API server, for the Jobs that call it with their ServiceAccount (cleanup, resize): it
 * records each request as {@code METHOD path Authorization} (and the body, when there is one) and answers with
 * the status code {@code answer} gives for it; {@link #env} is what the kubelet gives the Job's container.
 */
final class StandInApiServer implements AutoCloseable {
  /** One request: {@code METHOD path Authorization}, its Content-Type and body. */
  record Request(String line, String contentType, String body) {}

  final List<Request> requests = new CopyOnWriteArrayList<>();
  private final HttpsServer server;
  private final Path dir;

  private StandInApiServer(Path dir, Function<Request, Integer> answer) throws Exception {
    this.dir = dir;
    for (String tool : List.of("curl", "openssl")) {
      boolean present = PostgresServer.exec(List.of("sh", "-c", "command -v " + tool), Map.of(), Duration.ofSeconds(10))
          .exitCode() == 0;
      if (!present) {
        throw MissingComponent.skipOrFail(tool + " is not installed: install Debian's package " + tool);
      }
    }
    certificate(dir);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(dir.resolve("server.p12").toFile())) {
      store.load(in, "test".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "test".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/", exchange -> respond(exchange, answer));
    server.start();
  }

  /** Starts a server in {@code dir} (its certificate and the ServiceAccount's files go there). */
  static StandInApiServer start(Path dir, Function<Request, Integer> answer) throws Exception {
    return new StandInApiServer(dir, answer);
  }

  private void respond(HttpExchange exchange, Function<Request, Integer> answer) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Request request = new Request(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
        + exchange.getRequestHeaders().getFirst("Authorization"),
        exchange.getRequestHeaders().getFirst("Content-Type"), body);
    requests.add(request);
    exchange.sendResponseHeaders(answer.apply(request), -1);
    exchange.close();
  }

  /** The in-cluster client's environment: the service host and port, and the ServiceAccount (token, CA, namespace). */
  Map<String, String> env(String namespace) throws IOException {
    Path serviceAccount = Files.createDirectories(dir.resolve("serviceaccount"));
    Files.copy(dir.resolve("cert.pem"), serviceAccount.resolve("ca.crt"));
    Files.writeString(serviceAccount.resolve("token"), "test-token");
    Files.writeString(serviceAccount.resolve("namespace"), namespace);
    return Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1",
        "KUBERNETES_SERVICE_PORT", String.valueOf(server.getAddress().getPort()),
        "SERVICE_ACCOUNT_DIR", serviceAccount.toString());
  }

  List<String> lines() {
    return requests.stream().map(Request::line).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void certificate(Path dir) {
    String pem = dir.resolve("cert.pem").toString();
    String key = dir.resolve("key.pem").toString();
    for (List<String> command : List.of(
        List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", pem),
        List.of("openssl", "pkcs12", "-export", "-in", pem, "-inkey", key, "-out", dir.resolve("server.p12").toString(),
            "-passout", "pass:test"))) {
      PostgresServer.Result result = PostgresServer.exec(command, Map.of(), Duration.ofMinutes(1));
      assertThat(result.exitCode()).as(result.output()).isZero();
    }
  }
}
