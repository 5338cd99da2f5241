package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.metahooks.testsupport.MissingComponent;
import dev.metahooks.testsupport.PostgresServer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
 * An API server for a Job's script that talks to Kubernetes with curl: TLS with a certificate of its own, every
 * request recorded, each answered with the status code {@code answer} gives it. {@link #environment} is what the
 * kubelet gives the container (KUBERNETES_SERVICE_HOST and _PORT) and where the ServiceAccount is mounted.
 */
public final class StandInApiServer implements AutoCloseable {
  /** One request: method, path, the Authorization header, the Content-Type header and the body. */
  public record Request(
      String method, String path, String authorization, String contentType, String body) {
    public String line() {
      return method + " " + path + " " + authorization;
    }
  }

  private final HttpsServer server;
  private final Path serviceAccount;
  public final List<Request> requests = new CopyOnWriteArrayList<>();

  private StandInApiServer(HttpsServer server, Path serviceAccount) {
    this.server = server;
    this.serviceAccount = serviceAccount;
  }

  /** Skips (or fails in CI) without curl and openssl; the ServiceAccount's namespace is {@code namespace}. */
  public static StandInApiServer start(
      Path dir, String namespace, Function<Request, Integer> answer) {
    for (String tool : List.of("curl", "openssl")) {
      boolean present =
          PostgresServer.exec(
                      List.of("sh", "-c", "command -v " + tool), Map.of(), Duration.ofSeconds(10))
                  .exitCode()
              == 0;
      if (!present) {
        throw MissingComponent.skipOrFail(
            tool + " is not installed: install Debian's package " + tool);
      }
    }
    try {
      certificate(dir);
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = new FileInputStream(dir.resolve("server.p12").toFile())) {
        store.load(in, "test".toCharArray());
      }
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, "test".toCharArray());
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(keys.getKeyManagers(), null, null);
      HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      Path serviceAccount = Files.createDirectories(dir.resolve("serviceaccount"));
      Files.copy(dir.resolve("cert.pem"), serviceAccount.resolve("ca.crt"));
      Files.writeString(serviceAccount.resolve("token"), "test-token");
      Files.writeString(serviceAccount.resolve("namespace"), namespace);
      StandInApiServer api = new StandInApiServer(server, serviceAccount);
      server.createContext(
          "/",
          exchange -> {
            String body =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request request =
                new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    body);
            api.requests.add(request);
            exchange.sendResponseHeaders(answer.apply(request), -1);
            exchange.close();
          });
      server.start();
      return api;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Each request as {@code METHOD path Authorization}, in the order they came. */
  public List<String> lines() {
    return requests.stream().map(Request::line).toList();
  }

  public Map<String, String> environment() {
    return Map.of(
        "KUBERNETES_SERVICE_HOST",
        "127.0.0.1",
        "KUBERNETES_SERVICE_PORT",
        String.valueOf(server.getAddress().getPort()),
        "SERVICE_ACCOUNT_DIR",
        serviceAccount.toString());
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void certificate(Path dir) {
    String pem = dir.resolve("cert.pem").toString();
    String key = dir.resolve("key.pem").toString();
    for (List<String> command :
        List.of(
            List.of(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
                "-keyout",
                key,
                "-out",
                pem),
            List.of(
                "openssl",
                "pkcs12",
                "-export",
                "-in",
                pem,
                "-inkey",
                key,
                "-out",
                dir.resolve("server.p12").toString(),
                "-passout",
                "pass:test"))) {
      PostgresServer.Result result = PostgresServer.exec(command, Map.of(), Duration.ofMinutes(1));
      assertThat(result.exitCode()).as(result.output()).isZero();
    }
  }
}
