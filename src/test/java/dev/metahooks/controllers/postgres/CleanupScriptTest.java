package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.metahooks.controllers.postgres.children.Cleanup;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.testing.MissingComponent;
import dev.metahooks.testing.PostgresServer;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleanup Job's command, as the kubelet starts it, against a stand-in API server over TLS: it deletes each named
 * ConfigMap with the ServiceAccount's token, takes "already gone" as done, and fails on anything else so that
 * the Job retries (and the finalizer stays).
 */
class CleanupScriptTest {
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @Test
  void deletesEachConfigMapWithTheServiceAccountsToken(@TempDir Path dir) throws Exception {
    HttpsServer api = apiServer(dir, 404);
    try {
      PostgresServer.Result result = run(dir, api, List.of("pg-config", "pg-leader"));
      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(requests).containsExactly(
          "DELETE /api/v1/namespaces/shop/configmaps/pg-config Bearer test-token",
          "DELETE /api/v1/namespaces/shop/configmaps/pg-leader Bearer test-token");
      assertThat(result.output()).contains("ConfigMap pg-config: gone", "ConfigMap pg-leader: gone");
    } finally {
      api.stop(0);
    }
  }

  @Test
  void anyOtherAnswerFailsTheJob(@TempDir Path dir) throws Exception {
    HttpsServer api = apiServer(dir, 403);
    try {
      PostgresServer.Result result = run(dir, api, List.of("pg-config", "pg-leader"));
      assertThat(result.exitCode()).isNotZero();
      assertThat(result.output()).contains("ConfigMap pg-leader: HTTP 403");
    } finally {
      api.stop(0);
    }
  }

  private PostgresServer.Result run(Path dir, HttpsServer api, List<String> configMaps) throws Exception {
    ObjectNode job = Cleanup.job("pg", ClusterSpec.DEFAULT_IMAGE, PodScheduling.NONE, configMaps);
    Path serviceAccount = Files.createDirectories(dir.resolve("serviceaccount"));
    Files.copy(dir.resolve("cert.pem"), serviceAccount.resolve("ca.crt"));
    Files.writeString(serviceAccount.resolve("token"), "test-token");
    Files.writeString(serviceAccount.resolve("namespace"), "shop");
    // What the kubelet gives every container, and where the ServiceAccount is mounted.
    Map<String, String> env = Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1",
        "KUBERNETES_SERVICE_PORT", String.valueOf(api.getAddress().getPort()),
        "SERVICE_ACCOUNT_DIR", serviceAccount.toString());
    return RenderedContainers.run(RenderedContainers.of(job, Cleanup.CONTAINER, List.of()), env, Duration.ofMinutes(1));
  }

  /** Answers 200 to the first ConfigMap DELETE and {@code otherwise} to the rest. */
  private HttpsServer apiServer(Path dir, int otherwise) throws Exception {
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
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/", exchange -> {
      requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
          + exchange.getRequestHeaders().getFirst("Authorization"));
      exchange.sendResponseHeaders(requests.size() == 1 ? 200 : otherwise, -1);
      exchange.close();
    });
    server.start();
    return server;
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
