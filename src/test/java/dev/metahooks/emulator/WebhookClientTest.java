package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.metahooks.testsupport.TestKinds;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The emulator's webhook client against a bare HTTP server that records what it got: the headers Metacontroller
 * sends (Authorization from {@code authorization}, {@code basicAuth} or {@code endpointConfigs}; If-None-Match),
 * and how it takes a 429, a 304 and an empty body.
 */
class WebhookClientTest {
  private HttpServer server;
  private final List<Map<String, String>> received = new ArrayList<>();
  private volatile int status = 200;
  private volatile String body = "{\"status\": {}, \"children\": []}";
  private final Map<String, String> headers = new ConcurrentHashMap<>();
  private Cluster cluster;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  /** A new cluster with the Secret the hooks' credentials come from. */
  private void newCluster() {
    cluster = TestKinds.cluster();
    cluster.create(
        """
        {apiVersion: v1, kind: Secret, metadata: {name: hook-token, namespace: metahooks},
         data: {token: %s, username: %s, password: %s}}
        """
            .formatted(base64("  s3cret\\n"), base64("metacontroller"), base64("pa55 ")));
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private synchronized void answer(HttpExchange exchange) throws IOException {
    Map<String, String> got = new ConcurrentHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> got.put(name.toLowerCase(), values.get(0)));
    received.add(got);
    exchange.getRequestBody().readAllBytes();
    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    boolean notModified =
        headers.containsKey("ETag") && headers.get("ETag").equals(got.get("if-none-match"));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (notModified || status == 304) {
      exchange.sendResponseHeaders(304, -1);
    } else {
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  private static String base64(String text) {
    return Base64.getEncoder()
        .encodeToString(text.replace("\\n", "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** A controller whose sync webhook has these extra fields, and {@code endpointConfigs} as given. */
  private Metacontroller controller(String webhookFields, String endpointConfigs, Profile profile) {
    newCluster();
    Metacontroller mc =
        new Metacontroller(cluster, "http://localhost:" + server.getAddress().getPort())
            .profile(profile)
            .loadYaml(
                """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: raw-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
          childResources: [{apiVersion: v1, resource: configmaps}]
          endpointConfigs: %s
          hooks:
            sync:
              webhook: {url: "http://metahooks.metahooks/raw/sync" %s}
        """
                    .formatted(endpointConfigs, webhookFields));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {}}");
    return mc;
  }

  private String authorizationSent(String webhookFields, String endpointConfigs) {
    controller(webhookFields, endpointConfigs, Profile.V4_17_2).round();
    return received.get(received.size() - 1).get("authorization");
  }

  @Test
  void authorizationSendsItsTypeAndTheTrimmedSecretDefaultingToBearer() {
    String secret = "secretRef: {name: hook-token, namespace: metahooks, key: token}";
    assertThat(authorizationSent(", authorization: {" + secret + "}", "[]"))
        .isEqualTo("Bearer s3cret");
  }

  @Test
  void anotherAuthorizationTypeIsSentAsWritten() {
    assertThat(
            authorizationSent(
                ", authorization: {type: Token, secretRef: {name: hook-token, namespace: metahooks, key: token}}",
                "[]"))
        .isEqualTo("Token s3cret");
  }

  @Test
  void basicAuthSendsTrimmedUserAndPasswordBase64() {
    assertThat(
            authorizationSent(
                ", basicAuth: {secretRef: {name: hook-token, namespace: metahooks}}", "[]"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("metacontroller:pa55".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void endpointConfigsMatchTheHostWithOrWithoutTheSchemesDefaultPort() {
    String config =
        "{host: %s, authorization: {secretRef: {name: hook-token, namespace: metahooks, key: token}}}";
    assertThat(authorizationSent("", "[" + config.formatted("METAHOOKS.metahooks") + "]"))
        .isEqualTo("Bearer s3cret");
    assertThat(authorizationSent("", "[" + config.formatted("metahooks.metahooks:80") + "]"))
        .isEqualTo("Bearer s3cret");
    assertThat(authorizationSent("", "[" + config.formatted("metahooks.metahooks:8080") + "]"))
        .isNull();
    assertThat(authorizationSent("", "[" + config.formatted("other.metahooks") + "]")).isNull();
  }

  @Test
  void aWebhookWithAnyTlsOrAuthFieldOfItsOwnIgnoresEndpointConfigs() {
    String config =
        "[{host: metahooks.metahooks, authorization: {secretRef: {name: hook-token, namespace: metahooks, "
            + "key: token}}}]";
    assertThat(
            authorizationSent(
                ", basicAuth: {secretRef: {name: hook-token, namespace: metahooks}}", config))
        .startsWith("Basic ");
  }

  @Test
  void aBasicAuthorizationTypeOrAMissingSecretKeepsTheControllerFromStarting() {
    assertThatThrownBy(
            () ->
                controller(
                    ", authorization: {type: Basic, secretRef: {name: hook-token, namespace: metahooks, key: token}}",
                    "[]",
                    Profile.V4_17_2))
        .hasMessageContaining("Cannot create new controller raw-controller")
        .hasMessageContaining("use the basicAuth field instead");
    assertThatThrownBy(
            () ->
                controller(
                    ", authorization: {secretRef: {name: hook-token, namespace: metahooks, key: nope}}",
                    "[]",
                    Profile.V4_17_2))
        .hasMessageContaining("does not contain key \"nope\"");
  }

  @Test
  void withETagTheSecondCallSendsIfNoneMatchAndA304ReusesTheCachedAnswer() {
    headers.put("ETag", "\"e1\"");
    body = "{\"status\": {\"seen\": 1}, \"children\": []}";
    Metacontroller mc = controller(", etag: {enabled: true}", "[]", Profile.V4_17_2);

    mc.round();
    mc.round();

    assertThat(received.get(0)).doesNotContainKey("if-none-match");
    assertThat(received.get(1)).containsEntry("if-none-match", "\"e1\"");
    assertThat(mc.calls().get(1).status()).isEqualTo(304);
    assertThat(mc.calls().get(1).responseJson().at("/status/seen").asInt()).isEqualTo(1);
    assertThat(mc.syncErrors()).isEmpty();
  }

  @Test
  void without_etagA304IsAnError() {
    status = 304;
    Metacontroller mc = controller("", "[]", Profile.V4_17_2).tolerateSyncErrors();
    mc.round();
    assertThat(mc.syncErrors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("unsupported status code: 304");
  }

  @Test
  void a429IsARequeueAfterRetryAfterNotASyncError() {
    status = 429;
    headers.put("Retry-After", "7");
    Metacontroller mc = controller("", "[]", Profile.V4_17_2);

    mc.round();

    assertThat(mc.syncErrors()).isEmpty();
    assertThat(mc.requeues())
        .singleElement()
        .extracting(SyncError::message)
        .isEqualTo("requeued after 7 s");
  }

  @Test
  void anEmptyBodyIsADecodeErrorOnV4172() {
    body = "";
    Metacontroller faithful = controller("", "[]", Profile.V4_17_2).tolerateSyncErrors();
    faithful.round();
    assertThat(faithful.syncErrors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("unexpected end of JSON input");

    Metacontroller intended = controller("", "[]", Profile.INTENDED);
    intended.round();
    assertThat(intended.syncErrors()).isEmpty();
  }

  /** A null item decodes to a nil *Unstructured that the desired-children map dereferences: a panic. */
  @Test
  void onV4172ANullChildCrashesMetacontrollerAndUnderIntendedFailsTheSync() {
    body = "{\"status\": {}, \"children\": [null]}";
    Metacontroller mc = controller("", "[]", Profile.V4_17_2);
    assertThatThrownBy(mc::round)
        .isInstanceOf(MetacontrollerCrash.class)
        .hasMessageContaining(
            "raw-controller Thing default/t: on a cluster this answer crash-loops Metacontroller")
        .hasMessageContaining("nil pointer dereference");

    Metacontroller intended = controller("", "[]", Profile.INTENDED);
    assertThat(intended.round().errors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("a null item in the answer's children");
  }
}
