package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.TestTls;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.Project;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caBundle} and {@code clientTLS}, per webhook or from {@code endpointConfigs}, against the hook server
 * over HTTPS with client certificates required: the emulator connects as Metacontroller would.
 */
class WebhookTlsIT {
  @TempDir static Path dir;
  private static HookServer server;
  private static String ca;
  private static String clientCert;
  private static String clientKey;

  @BeforeAll
  static void start() throws Exception {
    List<Path> pem = TestTls.certificates(dir); // ca.crt, tls.crt, tls.key, client.crt, client.key
    server =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withSecurity(
                        null,
                        new ServerConfig.Tls(pem.get(1), pem.get(2), pem.get(0)),
                        Duration.ofSeconds(5)),
                Catalog.controllers())
            .start();
    ca = Files.readString(pem.get(0));
    clientCert = Files.readString(pem.get(3));
    clientKey = Files.readString(pem.get(4));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** hello-controller over HTTPS with these webhook fields and endpointConfigs; one round for a HelloWorld. */
  private Metacontroller syncOnce(String webhookFields, String endpointConfigs) {
    Cluster cluster = Project.cluster();
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: hook-ca, namespace: metahooks}, data: {ca.crt: "
            + Trees.MAPPER.valueToTree(ca)
            + "}}");
    cluster.create(
        "{apiVersion: v1, kind: Secret, metadata: {name: hook-tls, namespace: metahooks}, data: {tls.crt: "
            + base64(clientCert)
            + ", tls.key: "
            + base64(clientKey)
            + "}}");
    Metacontroller mc =
        new Metacontroller(cluster, "https://localhost:" + server.port())
            .tolerateSyncErrors()
            .loadYaml(
                """
            apiVersion: metacontroller.k8s.io/v1alpha1
            kind: CompositeController
            metadata: {name: hello-controller}
            spec:
              generateSelector: true
              parentResource: {apiVersion: example.com/v1, resource: helloworlds}
              childResources: [{apiVersion: v1, resource: pods, updateStrategy: {method: Recreate}}]
              endpointConfigs: %s
              hooks:
                sync:
                  webhook: {url: "http://metahooks.metahooks/hello-world/sync" %s}
            """
                    .formatted(endpointConfigs, webhookFields));
    cluster.create(
        "{apiVersion: example.com/v1, kind: HelloWorld, metadata: {name: tls}, spec: {who: TLS}}");
    mc.round();
    return mc;
  }

  private static final String CLIENT_TLS =
      "clientTLS: {secretRef: {name: hook-tls, namespace: metahooks}}";
  private static final String CA_FROM_CONFIG_MAP =
      "caBundle: {configMapRef: {name: hook-ca, namespace: metahooks}}";

  @Test
  void aCaBundleAndAClientCertificateOfTheWebhookConnect() {
    Metacontroller mc = syncOnce(", " + CA_FROM_CONFIG_MAP + ", " + CLIENT_TLS, "[]");
    assertThat(mc.syncErrors()).isEmpty();
    assertThat(mc.lastCall("hello-controller", "sync").status()).isEqualTo(200);
    assertThat(mc.cluster().exists("v1", "Pod", "default", "tls")).isTrue();
  }

  @Test
  void endpointConfigsOfTheHostGiveTheSameConnection() {
    Metacontroller mc =
        syncOnce(
            "", "[{host: metahooks.metahooks, " + CA_FROM_CONFIG_MAP + ", " + CLIENT_TLS + "}]");
    assertThat(mc.syncErrors()).isEmpty();
    assertThat(mc.lastCall("hello-controller", "sync").status()).isEqualTo(200);
  }

  @Test
  void withoutTheClientCertificateTheHandshakeFails() {
    Metacontroller mc =
        syncOnce(
            ", caBundle: {inline: " + Trees.MAPPER.valueToTree(ca) + "}",
            "[{host: metahooks.metahooks, " + CLIENT_TLS + "}]");
    assertThat(mc.syncErrors())
        .as("the webhook's own caBundle turns endpointConfigs off")
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("http error");
  }

  @Test
  void withoutTheCaTheServerIsNotTrusted() {
    Metacontroller mc = syncOnce(", " + CLIENT_TLS, "[]");
    assertThat(mc.syncErrors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("http error");
  }
}
