package dev.metahooks.manifests;

import static dev.metahooks.manifests.Rendered.container;
import static dev.metahooks.manifests.Rendered.containerPort;
import static dev.metahooks.manifests.Rendered.deployment;
import static dev.metahooks.manifests.Rendered.only;
import static dev.metahooks.manifests.Rendered.podSpec;
import static dev.metahooks.manifests.Rendered.quantity;
import static dev.metahooks.manifests.Rendered.selects;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahooks.api.Json;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.ProjectCrds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@code kubectl kustomize manifests}: everything the hook server needs, hardened, and nothing else. */
class HookServerManifestsIT {
  private static final String NAMESPACE = "metahooks";
  private static final int SERVER_PORT = 8080;

  @Test
  void rendersTheServerAndEveryCrd() {
    List<String> kinds =
        Rendered.server().stream().map(o -> o.path("kind").asText()).sorted().distinct().toList();
    assertThat(kinds)
        .containsExactlyInAnyOrder(
            "Namespace",
            "ServiceAccount",
            "Deployment",
            "Service",
            "PodDisruptionBudget",
            "NetworkPolicy",
            "CustomResourceDefinition");
  }

  @Test
  void namespacedObjectsLiveInTheMetahooksNamespace() {
    for (JsonNode object : Rendered.server()) {
      String kind = object.path("kind").asText();
      if (!Set.of("Namespace", "CustomResourceDefinition").contains(kind)) {
        assertThat(object.at("/metadata/namespace").asText())
            .as("%s namespace", kind)
            .isEqualTo(NAMESPACE);
      }
    }
  }

  @Test
  void everyObjectFitsTheKubernetesSchema() {
    for (JsonNode object : Rendered.server()) {
      KubeSchema.assertValid(object);
    }
  }

  @Test
  void theNamespaceEnforcesTheRestrictedPodSecurityStandard() {
    JsonNode namespace = only("Namespace");
    assertThat(namespace.at("/metadata/name").asText()).isEqualTo(NAMESPACE);
    assertThat(namespace.at("/metadata/labels").path("pod-security.kubernetes.io/enforce").asText())
        .isEqualTo("restricted");
  }

  @Nested
  class Crds {
    @Test
    void everyFileInCrdsIsInstalled() {
      List<String> listed = Manifests.listedResources(Manifests.CRDS);
      List<Path> files = Manifests.yamlFiles(Manifests.CRDS);
      assertThat(files).isNotEmpty();
      for (Path file : files) {
        assertThat(listed)
            .as("resources of manifests/crds/kustomization.yaml")
            .contains(file.getFileName().toString());
      }
    }

    @Test
    void everyRenderedCrdIsOneOfCrds() {
      List<String> inFiles =
          ProjectCrds.crds().stream().map(c -> c.at("/metadata/name").asText()).toList();
      List<String> rendered =
          Rendered.server().stream()
              .filter(o -> o.path("kind").asText().equals("CustomResourceDefinition"))
              .map(c -> c.at("/metadata/name").asText())
              .toList();
      assertThat(rendered).containsExactlyInAnyOrderElementsOf(inFiles);
    }

    @Test
    void everyCrdIsNamedAfterItsResourceAndHasOneStorageVersionWithAStructuralSchema() {
      for (JsonNode crd : ProjectCrds.crds()) {
        String name = crd.at("/metadata/name").asText();
        assertThat(crd.path("apiVersion").asText()).as(name).isEqualTo("apiextensions.k8s.io/v1");
        assertThat(name)
            .isEqualTo(
                crd.at("/spec/names/plural").asText() + "." + crd.at("/spec/group").asText());
        List<JsonNode> versions =
            StreamSupport.stream(crd.at("/spec/versions").spliterator(), false).toList();
        assertThat(versions.stream().filter(v -> v.path("storage").asBoolean()))
            .as("%s storage versions", name)
            .hasSize(1);
        for (JsonNode version : versions) {
          CrdSchema.of(
              crd, version.path("name").asText()); // throws on a schema that is not structural
        }
      }
    }

    @Test
    void samplesAreNotInstalledByTheBase() {
      assertThat(Rendered.server()).noneMatch(ProjectCrds::knows);
    }
  }

  @Nested
  class TheDeployment {
    @Test
    void runsTwoReplicasOfTheImageWithoutOverridingItsEntrypoint() {
      assertThat(deployment().at("/spec/replicas").intValue()).isEqualTo(2);
      assertThat(container().path("image").asText()).startsWith("ghcr.io/metahooks/metahooks:");
      // command or args would replace the image's JVM flags or turn the server into the offline CLI
      assertThat(container().has("command")).isFalse();
      assertThat(container().has("args")).isFalse();
    }

    @Test
    void selectsItsOwnPods() {
      assertThat(
              selects(
                  deployment().at("/spec/selector"),
                  deployment().at("/spec/template/metadata/labels")))
          .isTrue();
    }

    @Test
    void servesHttpOnPort8080() {
      JsonNode ports = container().path("ports");
      assertThat(ports).hasSize(1);
      assertThat(ports.get(0).path("containerPort").intValue()).isEqualTo(SERVER_PORT);
      assertThat(ports.get(0).path("name").asText()).isEqualTo("http");
      for (JsonNode env : container().path("env")) {
        if (env.path("name").asText().equals("METAHOOKS_PORT")) {
          assertThat(env.path("value").asText()).isEqualTo(String.valueOf(SERVER_PORT));
        }
      }
    }

    @Test
    void runsAsAFixedNonRootUser() {
      JsonNode pod = podSpec().path("securityContext");
      JsonNode own = container().path("securityContext");
      assertThat(pod.path("runAsNonRoot").asBoolean() || own.path("runAsNonRoot").asBoolean())
          .isTrue();
      assertThat(own.path("runAsNonRoot").asBoolean(true)).as("container runAsNonRoot").isTrue();
      int uid =
          own.has("runAsUser")
              ? own.path("runAsUser").intValue()
              : pod.path("runAsUser").intValue();
      int gid =
          own.has("runAsGroup")
              ? own.path("runAsGroup").intValue()
              : pod.path("runAsGroup").intValue();
      assertThat(uid).as("runAsUser").isPositive();
      assertThat(gid).as("runAsGroup").isPositive();
    }

    @Test
    void hasAReadOnlyRootFilesystemNoPrivilegeEscalationAndNoCapabilities() {
      JsonNode security = container().path("securityContext");
      assertThat(security.path("readOnlyRootFilesystem").asBoolean())
          .as("readOnlyRootFilesystem")
          .isTrue();
      assertThat(security.path("allowPrivilegeEscalation").isBoolean())
          .as("allowPrivilegeEscalation set")
          .isTrue();
      assertThat(security.path("allowPrivilegeEscalation").asBoolean())
          .as("allowPrivilegeEscalation")
          .isFalse();
      assertThat(security.path("privileged").asBoolean(false)).as("privileged").isFalse();
      assertThat(security.at("/capabilities/drop")).containsExactly(TextNode.valueOf("ALL"));
      assertThat(security.at("/capabilities/add").isMissingNode())
          .as("capabilities added")
          .isTrue();
    }

    @Test
    void usesTheRuntimeDefaultSeccompProfile() {
      String pod = podSpec().at("/securityContext/seccompProfile/type").asText();
      String own = container().at("/securityContext/seccompProfile/type").asText(pod);
      assertThat(own).isEqualTo("RuntimeDefault");
    }

    @Test
    void writesOnlyToAnEmptyDirAtTmp() {
      JsonNode mounts = container().path("volumeMounts");
      assertThat(mounts).hasSize(1);
      assertThat(mounts.get(0).path("mountPath").asText()).isEqualTo("/tmp");
      String volume = mounts.get(0).path("name").asText();
      JsonNode tmp =
          StreamSupport.stream(podSpec().path("volumes").spliterator(), false)
              .filter(v -> v.path("name").asText().equals(volume))
              .findFirst()
              .orElseThrow();
      assertThat(tmp.has("emptyDir")).as("volume %s is an emptyDir", volume).isTrue();
    }

    @Test
    void mountsNoServiceAccountToken() {
      assertThat(podSpec().path("automountServiceAccountToken").asBoolean(true)).isFalse();
    }

    @Test
    void probesLivenessOnHealthzAndReadinessOnReadyz() {
      assertThat(container().at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
      assertThat(containerPort(container().at("/livenessProbe/httpGet/port")))
          .isEqualTo(SERVER_PORT);
      assertThat(container().at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
      assertThat(containerPort(container().at("/readinessProbe/httpGet/port")))
          .isEqualTo(SERVER_PORT);
      if (container().has("startupProbe")) {
        assertThat(container().at("/startupProbe/httpGet/path").asText()).isEqualTo("/healthz");
      }
    }

    @Test
    void requestsAndLimitsCpuAndMemory() {
      JsonNode resources = container().path("resources");
      for (String resource : List.of("cpu", "memory")) {
        JsonNode request = resources.at("/requests/" + resource);
        JsonNode limit = resources.at("/limits/" + resource);
        assertThat(request.isMissingNode()).as("%s request", resource).isFalse();
        assertThat(limit.isMissingNode()).as("%s limit", resource).isFalse();
        assertThat(quantity(request))
            .as("%s request <= limit", resource)
            .isLessThanOrEqualTo(quantity(limit));
      }
      // the heap is a share of the memory limit (MaxRAMPercentage): too little leaves no room for a
      // large request
      assertThat(quantity(resources.at("/limits/memory")))
          .isGreaterThanOrEqualTo(quantity(TextNode.valueOf("256Mi")));
    }

    @Test
    void stopsWithinItsGracePeriod() {
      int grace = podSpec().path("terminationGracePeriodSeconds").asInt(-1);
      assertThat(grace).as("terminationGracePeriodSeconds").isPositive();
      int preStop = container().at("/lifecycle/preStop/sleep/seconds").asInt(0);
      assertThat(preStop).as("preStop sleep").isLessThan(grace);
    }

    @Test
    void spreadsItsPodsOverNodes() {
      JsonNode labels = deployment().at("/spec/template/metadata/labels");
      List<JsonNode> overNodes = new ArrayList<>();
      for (JsonNode constraint : podSpec().path("topologySpreadConstraints")) {
        if (constraint.path("topologyKey").asText().equals("kubernetes.io/hostname")
            && selects(constraint.path("labelSelector"), labels)) {
          overNodes.add(constraint);
        }
      }
      for (JsonNode term :
          podSpec()
              .at("/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution")) {
        if (term.at("/podAffinityTerm/topologyKey").asText().equals("kubernetes.io/hostname")
            && selects(term.at("/podAffinityTerm/labelSelector"), labels)) {
          overNodes.add(term);
        }
      }
      assertThat(overNodes).as("spread over kubernetes.io/hostname").isNotEmpty();
    }

    @Test
    void rollsOutWithoutGoingBelowTheDisruptionBudget() {
      assertThat(deployment().at("/spec/strategy/rollingUpdate/maxUnavailable").asInt(-1)).isZero();
    }
  }

  @Test
  void theServiceMapsPort80ToTheServerPort() {
    JsonNode service = only("Service");
    assertThat(service.at("/metadata/name").asText())
        .as("http://metahooks.metahooks/...")
        .isEqualTo("metahooks");
    assertThat(service.at("/spec/type").asText("ClusterIP")).isEqualTo("ClusterIP");
    JsonNode ports = service.at("/spec/ports");
    assertThat(ports).hasSize(1);
    assertThat(ports.get(0).path("port").intValue()).isEqualTo(80);
    assertThat(containerPort(ports.get(0).path("targetPort"))).isEqualTo(SERVER_PORT);
    assertThat(
            selects(
                Json.object().set("matchLabels", service.at("/spec/selector")),
                deployment().at("/spec/template/metadata/labels")))
        .as("the Service selects the server's pods")
        .isTrue();
  }

  @Test
  void theDisruptionBudgetKeepsOneServerUp() {
    JsonNode pdb = only("PodDisruptionBudget");
    assertThat(pdb.at("/spec/minAvailable").intValue()).isEqualTo(1);
    assertThat(pdb.at("/spec/minAvailable").intValue())
        .isLessThan(deployment().at("/spec/replicas").intValue());
    assertThat(selects(pdb.at("/spec/selector"), deployment().at("/spec/template/metadata/labels")))
        .isTrue();
  }

  @Test
  void theNetworkPolicyAdmitsOnlyMetacontrollerAndTheMonitoringNamespaceToTheServerPort() {
    JsonNode policy = only("NetworkPolicy").path("spec");
    assertThat(
            selects(policy.path("podSelector"), deployment().at("/spec/template/metadata/labels")))
        .isTrue();
    assertThat(policy.path("policyTypes")).containsExactly(TextNode.valueOf("Ingress"));
    assertThat(policy.path("ingress")).hasSize(2);
    assertThat(policy.at("/ingress/1/from"))
        .isEqualTo(
            Manifests.parse(
                    """
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: monitoring
        """)
                .get(0));
    assertThat(policy.at("/ingress/1/ports"))
        .isEqualTo(Manifests.parse("[{protocol: TCP, port: 8080}]").get(0));
    JsonNode rule = policy.path("ingress").get(0);
    assertThat(rule.path("from"))
        .isEqualTo(
            Manifests.parse(
                    """
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: metacontroller
        """)
                .get(0));
    assertThat(rule.path("ports"))
        .isEqualTo(Manifests.parse("[{protocol: TCP, port: 8080}]").get(0));
  }
}
