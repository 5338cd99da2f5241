package com.example.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testing.kube.KubeYaml;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl kustomize k8s}, as {@code kubectl apply -k k8s} sees it, without a cluster: every object fits its
 * schema (Kubernetes' and Metacontroller's), the hook URL reaches the Deployment's port through the Service, only
 * Metacontroller may call it, and the pods are hardened as the restricted Pod Security Standard wants and run the
 * image the Dockerfile makes.
 */
class GreetingManifestsTest {
  private static final List<JsonNode> OBJECTS = KubeYaml.kustomize(Path.of("k8s"));
  private static final String NAMESPACE = "greeting";

  private static JsonNode only(String kind) {
    List<JsonNode> found = OBJECTS.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

  private static JsonNode container() {
    JsonNode containers = only("Deployment").at("/spec/template/spec/containers");
    assertThat(containers).hasSize(1);
    return containers.get(0);
  }

  /** The container port a probe or a Service's targetPort names. */
  private static int containerPort(JsonNode port) {
    if (port.isInt()) {
      return port.intValue();
    }
    for (JsonNode p : container().path("ports")) {
      if (p.path("name").asText().equals(port.asText())) {
        return p.path("containerPort").intValue();
      }
    }
    throw new AssertionError("the container has no port named " + port);
  }

  @Test
  void rendersTheServerTheCrdAndTheControllerEachFittingItsSchema() {
    assertThat(OBJECTS.stream().map(o -> o.path("kind").asText()).sorted().toList()).containsExactly(
        "CompositeController", "CustomResourceDefinition", "Deployment", "Namespace", "NetworkPolicy",
        "PodDisruptionBudget", "Service", "ServiceAccount");
    for (JsonNode object : OBJECTS) {
      if (object.path("apiVersion").asText().equals(MetacontrollerSchema.API_VERSION)) {
        MetacontrollerSchema.assertValid(object);
        assertThat(object.at("/metadata").has("namespace")).as("a CompositeController is cluster-scoped").isFalse();
      } else {
        KubeSchema.assertValid(object);
      }
    }
  }

  @Test
  void theHookUrlReachesTheServersPortThroughTheService() {
    URI url = URI.create(only("CompositeController").at("/spec/hooks/sync/webhook/url").asText());
    assertThat(url.getPath()).isEqualTo("/" + GreetingController.controller().name() + "/sync");
    JsonNode service = only("Service");
    assertThat(url.getHost()).isEqualTo(service.at("/metadata/name").asText() + "." + NAMESPACE);
    JsonNode port = service.at("/spec/ports/0");
    assertThat(port.path("port").asInt()).isEqualTo(url.getPort() == -1 ? 80 : url.getPort());
    assertThat(containerPort(port.path("targetPort"))).isEqualTo(8080);
    assertThat(container().path("env").toString()).contains("{\"name\":\"METAHOOKS_PORT\",\"value\":\"8080\"}");
    JsonNode podLabels = only("Deployment").at("/spec/template/metadata/labels");
    service.at("/spec/selector").properties().forEach(label ->
        assertThat(podLabels.path(label.getKey())).as("pod label %s", label.getKey()).isEqualTo(label.getValue()));
    List<String> clusterScoped = List.of("Namespace", "CustomResourceDefinition", "CompositeController");
    for (JsonNode object : OBJECTS) {
      if (!clusterScoped.contains(object.path("kind").asText())) {
        assertThat(object.at("/metadata/namespace").asText()).as(object.path("kind").asText()).isEqualTo(NAMESPACE);
      }
    }
  }

  @Test
  void onlyMetacontrollerMayCallTheHooks() {
    JsonNode policy = only("NetworkPolicy").path("spec");
    assertThat(policy.at("/podSelector/matchLabels")).isEqualTo(only("Deployment").at("/spec/selector/matchLabels"));
    assertThat(policy.path("ingress")).hasSize(1);
    JsonNode rule = policy.at("/ingress/0");
    assertThat(rule.at("/from/0/namespaceSelector/matchLabels").toString())
        .isEqualTo("{\"kubernetes.io/metadata.name\":\"metacontroller\"}");
    assertThat(rule.at("/ports/0/port").asInt()).isEqualTo(8080);
  }

  @Test
  void theProbesAskTheServerAndTheResourcesAreBounded() {
    JsonNode container = container();
    for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
      assertThat(containerPort(container.at("/" + probe + "/httpGet/port"))).as(probe).isEqualTo(8080);
    }
    assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
    assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
    JsonNode resources = container.path("resources");
    assertThat(resources.at("/requests/cpu").isMissingNode()).isFalse();
    assertThat(resources.at("/limits/cpu").isMissingNode()).isFalse();
    // The heap follows the memory limit: a request below it could see the pod evicted first.
    assertThat(resources.at("/requests/memory")).isEqualTo(resources.at("/limits/memory"));
  }

  @Test
  void thePodsAreHardenedAndRunAsTheImagesUser() throws IOException {
    JsonNode pod = only("Deployment").at("/spec/template/spec");
    assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
    assertThat(pod.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
    assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
    JsonNode container = container().path("securityContext");
    assertThat(container.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
    assertThat(container.path("readOnlyRootFilesystem").asBoolean()).isTrue();
    assertThat(container.at("/capabilities/drop").toString()).isEqualTo("[\"ALL\"]");
    assertThat(only("Namespace").at("/metadata/labels").path("pod-security.kubernetes.io/enforce").asText())
        .isEqualTo("restricted");

    Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)$").matcher(Files.readString(Path.of("Dockerfile")));
    assertThat(user.find()).as("a numeric USER in the Dockerfile").isTrue();
    assertThat(pod.at("/securityContext/runAsUser").asText()).isEqualTo(user.group(1));
    assertThat(pod.at("/securityContext/runAsGroup").asText()).isEqualTo(user.group(2));
    assertThat(Files.readString(Path.of("Dockerfile"))).containsPattern("(?m)^EXPOSE 8080$");
  }

  @Test
  void theImageIsNamedOnceAndTaggedWithThePomsVersion() throws IOException {
    String version = System.getProperty("greeting.version");
    assertThat(version).as("greeting.version (set by the pom)").isNotBlank();
    assertThat(container().path("image").asText()).isEqualTo("registry.example.com/greeting:" + version);
    assertThat(Files.readString(Path.of("k8s/server/deployment.yaml")))
        .contains("image: registry.example.com/greeting ");
    assertThat(Files.readString(Path.of("Dockerfile")))
        .contains("docker build -t registry.example.com/greeting:" + version + " .");
  }
}
