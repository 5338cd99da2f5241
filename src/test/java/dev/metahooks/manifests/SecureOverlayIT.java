package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Manifests;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code manifests/overlays/secure}: every hook over HTTPS with the endpoint config Metacontroller needs
 * (CA bundle, client certificate, bearer token), and the hook server configured to demand all three.
 */
class SecureOverlayIT {
  private static List<JsonNode> rendered;

  @BeforeAll
  static void render() {
    rendered = Manifests.render(Manifests.MANIFESTS.resolve("overlays/secure"));
  }

  private static List<JsonNode> controllers() {
    return rendered.stream()
        .filter(o -> o.path("kind").asText().matches("CompositeController|DecoratorController"))
        .toList();
  }

  @Test
  void installsEveryControllerOfTheBase() {
    assertThat(controllers().stream().map(c -> c.at("/metadata/name").asText()))
        .containsExactlyInAnyOrderElementsOf(
            Manifests.render(Manifests.METACONTROLLER).stream()
                .map(c -> c.at("/metadata/name").asText())
                .toList());
  }

  @Test
  void everyHookIsCalledOverHttps() {
    for (JsonNode controller : controllers()) {
      controller
          .at("/spec/hooks")
          .fields()
          .forEachRemaining(
              hook ->
                  assertThat(hook.getValue().at("/webhook/url").asText())
                      .as("%s %s", controller.at("/metadata/name").asText(), hook.getKey())
                      .matches("https://metahooks\\.metahooks/[a-z-]+/" + hook.getKey()));
    }
  }

  @Test
  void everyControllerSendsTheCaBundleClientCertificateAndToken() {
    for (JsonNode controller : controllers()) {
      JsonNode config = controller.at("/spec/endpointConfigs/0");
      String name = controller.at("/metadata/name").asText();
      assertThat(config.path("host").asText()).as(name).isEqualTo("metahooks.metahooks");
      assertThat(config.at("/caBundle/secretRef/key").asText()).as(name).isEqualTo("ca.crt");
      assertThat(config.at("/clientTLS/secretRef/name").asText())
          .as(name)
          .isEqualTo("metahooks-client");
      assertThat(config.at("/authorization/secretRef/key").asText()).as(name).isEqualTo("token");
      assertThat(config.at("/authorization/type").asText()).as(name).isEqualTo("Bearer");
    }
  }

  @Test
  void theServerDemandsTlsClientCertificatesAndTheToken() {
    JsonNode deployment = only("Deployment");
    JsonNode container = deployment.at("/spec/template/spec/containers/0");
    Map<String, String> env = new HashMap<>();
    container.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
    assertThat(env)
        .containsEntry("METAHOOKS_TLS_CERT_FILE", "/etc/metahooks/tls/tls.crt")
        .containsEntry("METAHOOKS_TLS_KEY_FILE", "/etc/metahooks/tls/tls.key")
        .containsEntry("METAHOOKS_TLS_CLIENT_CA_FILE", "/etc/metahooks/tls/ca.crt")
        .containsEntry("METAHOOKS_TOKEN_FILE", "/etc/metahooks/token/token")
        .containsEntry("METAHOOKS_MANAGEMENT_PORT", "8081");
    for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
      assertThat(container.at("/" + probe + "/httpGet/port").asText())
          .as(probe)
          .isEqualTo("management");
    }
    assertThat(container.path("volumeMounts").findValuesAsText("mountPath"))
        .contains("/etc/metahooks/tls", "/etc/metahooks/token", "/tmp");
    assertThat(deployment.at("/spec/template/spec/volumes").findValuesAsText("secretName"))
        .containsExactlyInAnyOrder("metahooks-tls", "metahooks-token");
    assertThat(container.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
    KubeSchema.assertValid(deployment);
  }

  @Test
  void theServiceSpeaksHttpsOnPort443() {
    JsonNode service = only("Service");
    assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(443);
    assertThat(service.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
    KubeSchema.assertValid(service);
  }

  private static JsonNode only(String kind) {
    List<JsonNode> found =
        rendered.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
