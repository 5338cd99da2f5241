package dev.metahooks.controllers.serviceperpod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Round;
import dev.metahooks.testsupport.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * service-per-pod and pod-name-label end to end, following upstream's test.sh (and service-per-pod-v2's with
 * the hooks switched to v2): Service {@code nginx-2} selects {@code pod-name=nginx-2}, Pod {@code nginx-2}
 * carries that label; removing the opt-in annotation deletes the Services and drops the decorator's
 * finalizer; adding it back brings them back; deleting the StatefulSet behind a test finalizer deletes them
 * again and drops the finalizer. Here the Services also follow the replica count up and down.
 *
 * <p>The emulator's workloads do not create Pods, so a small simulation plays the StatefulSet controller.
 */
class ServicePerPodScenarioTest {
  private static final String DECORATOR_FINALIZER =
      "metacontroller.io/decoratorcontroller-service-per-pod";
  private static final String TEST_FINALIZER = "metacontroller.io/service-per-pod-test";
  private static final List<String> MANIFESTS =
      List.of("metacontroller/service-per-pod.yaml", "metacontroller/pod-name-label.yaml");

  private Cluster cluster;
  private Metacontroller mc;

  @ParameterizedTest(name = "hooks {0}")
  @ValueSource(strings = {"v1", "v2"})
  void upstreamSequence(String version) {
    start(version);

    mc.runUntilStable(10);
    assertThat(service("nginx-2").at("/spec/selector/pod-name").asText()).isEqualTo("nginx-2");
    assertThat(pod("nginx-2").at("/metadata/labels/pod-name").asText()).isEqualTo("nginx-2");
    assertEachServiceSelectsExactlyItsPod(3);
    assertThat(finalizers(statefulSet())).contains(DECORATOR_FINALIZER);
    assertThat(verifiedAnnotation()).isEqualTo(version.equals("v2") ? "true" : "absent");

    removeOptInAnnotation();
    mc.runUntilStable(10);
    assertThat(perPodServiceNames()).isEmpty();
    assertThat(finalizers(statefulSet())).doesNotContain(DECORATOR_FINALIZER);

    addOptInAnnotation();
    mc.runUntilStable(10);
    assertThat(service("nginx-2").at("/spec/selector/pod-name").asText()).isEqualTo("nginx-2");
    assertEachServiceSelectsExactlyItsPod(3);

    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "nginx",
        sts -> sts.withArray("/metadata/finalizers").add(TEST_FINALIZER));
    cluster.delete("apps/v1", "StatefulSet", "default", "nginx");
    mc.runUntilStable(10);
    assertThat(perPodServiceNames()).isEmpty();
    assertThat(finalizers(statefulSet())).containsExactly(TEST_FINALIZER);
    assertNoHotLoopAndValidAttachments();

    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "nginx",
        sts -> ((ObjectNode) sts.get("metadata")).putArray("finalizers"));
    mc.runUntilStable(10);
    assertThat(cluster.find("apps/v1", "StatefulSet", "default", "nginx")).isEmpty();
    assertThat(podNames()).isEmpty();
    assertThat(serviceNames()).containsExactly("nginx"); // the headless Service of the sample stays
  }

  @Test
  void servicesFollowTheReplicaCountUpAndDown() {
    start("v1");
    mc.runUntilStable(10);

    setReplicas(5);
    mc.runUntilStable(10);
    assertThat(perPodServiceNames())
        .containsExactly("nginx-0", "nginx-1", "nginx-2", "nginx-3", "nginx-4");
    assertEachServiceSelectsExactlyItsPod(5);

    setReplicas(1);
    mc.runUntilStable(10);
    assertThat(perPodServiceNames()).containsExactly("nginx-0");
    assertThat(podNames()).containsExactly("nginx-0");
    assertEachServiceSelectsExactlyItsPod(1);

    setReplicas(0);
    mc.runUntilStable(10);
    assertThat(perPodServiceNames()).isEmpty();
    assertThat(finalizers(statefulSet())).contains(DECORATOR_FINALIZER); // still opted in
    assertNoHotLoopAndValidAttachments();
  }

  @Test
  void theFinalizerStaysUntilTheLastServiceIsGone() {
    start("v1");
    mc.runUntilStable(10);

    removeOptInAnnotation();
    for (int i = 0; i < 10; i++) {
      Round round = mc.round();
      if (!perPodServiceNames().isEmpty()) {
        assertThat(finalizers(statefulSet()))
            .as("after round %d", round.number())
            .contains(DECORATOR_FINALIZER);
      }
      if (!round.changed()) {
        break;
      }
    }
    assertThat(finalizers(statefulSet())).doesNotContain(DECORATOR_FINALIZER);
    assertThat(mc.calls("service-per-pod", "finalize")).isNotEmpty();
  }

  @Test
  void v2SyncReportsTheNamespacedKeyOfServiceZero() {
    start("v2");

    mc.round(); // no Service observed yet
    assertThat(verifiedAnnotation()).isEqualTo("false");
    mc.runUntilStable(10);

    assertThat(verifiedAnnotation()).isEqualTo("true");
    JsonNode attachments =
        mc.lastCall("service-per-pod", "sync").request().path("attachments").path("Service.v1");
    assertThat(attachments.has("default/nginx-0")).isTrue();
    for (String controller : List.of("service-per-pod", "pod-name-label")) {
      assertThat(
              mc.lastCall(controller, "sync")
                  .request()
                  .at("/controller/spec/hooks/sync/version")
                  .asText())
          .isEqualTo("v2");
    }
    assertNoHotLoopAndValidAttachments();
  }

  // ---- helpers

  /** Loads both decorators with every hook at {@code version}, creates the sample, plays the StatefulSet controller. */
  private void start(String version) {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster);
    for (String manifest : MANIFESTS) {
      mc.loadYaml(withHookVersion(read(manifest), version));
    }
    mc.world().add("statefulset-controller", ServicePerPodScenarioTest::runStatefulSetPods);
    cluster.createFile("manifests/examples/service-per-pod.yaml");
  }

  /** The manifest with {@code version: <version>} on every hook (v1 is the default when none is given). */
  private static String withHookVersion(String manifest, String version) {
    String replaced =
        manifest.replace("      webhook:\n", "      version: " + version + "\n      webhook:\n");
    assertThat(replaced).contains("version: " + version);
    return replaced;
  }

  private static String read(String path) {
    try {
      return Files.readString(Path.of(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Pods {@code <sts>-<i>} for i below replicas, from the template, owned by the StatefulSet; extra ones deleted. */
  private static void runStatefulSetPods(Cluster cluster) {
    for (ObjectNode sts : cluster.list("apps/v1", "StatefulSet")) {
      if (sts.at("/metadata/deletionTimestamp").isTextual()) {
        continue;
      }
      String name = sts.at("/metadata/name").asText();
      String namespace = sts.at("/metadata/namespace").asText();
      int replicas = sts.at("/spec/replicas").asInt(1);
      for (int i = 0; i < replicas; i++) {
        if (!cluster.exists("v1", "Pod", namespace, name + "-" + i)) {
          cluster.create(podOf(sts, name + "-" + i));
        }
      }
      for (ObjectNode pod : cluster.list("v1", "Pod", namespace)) {
        String podName = pod.at("/metadata/name").asText();
        boolean ours =
            pod.at("/metadata/ownerReferences/0/uid")
                .asText()
                .equals(sts.at("/metadata/uid").asText());
        if (ours && Integer.parseInt(podName.substring(name.length() + 1)) >= replicas) {
          cluster.delete("v1", "Pod", namespace, podName);
        }
      }
    }
  }

  private static ObjectNode podOf(ObjectNode sts, String podName) {
    ObjectNode template = (ObjectNode) sts.at("/spec/template");
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode metadata =
        pod.putObject("metadata")
            .put("name", podName)
            .put("namespace", sts.at("/metadata/namespace").asText());
    metadata.set("labels", template.at("/metadata/labels").deepCopy());
    ((ObjectNode) metadata.get("labels")).put("statefulset.kubernetes.io/pod-name", podName);
    metadata.set("annotations", template.at("/metadata/annotations").deepCopy());
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "apps/v1")
        .put("kind", "StatefulSet")
        .put("name", sts.at("/metadata/name").asText())
        .put("uid", sts.at("/metadata/uid").asText())
        .put("controller", true)
        .put("blockOwnerDeletion", true);
    pod.set("spec", template.get("spec").deepCopy());
    return pod;
  }

  /** Every per-pod Service selects exactly the Pod it is named after, and there are {@code count} of them. */
  private void assertEachServiceSelectsExactlyItsPod(int count) {
    assertThat(perPodServiceNames()).hasSize(count);
    for (String serviceName : perPodServiceNames()) {
      Map.Entry<String, JsonNode> selector =
          service(serviceName).at("/spec/selector").properties().iterator().next();
      String key = selector.getKey();
      String value = selector.getValue().asText();
      List<String> selected =
          cluster.list("v1", "Pod").stream()
              .filter(pod -> pod.at("/metadata/labels").path(key).asText().equals(value))
              .map(pod -> pod.at("/metadata/name").asText())
              .toList();
      assertThat(selected)
          .as("Pods selected by Service %s", serviceName)
          .containsExactly(serviceName);
    }
  }

  private void removeOptInAnnotation() {
    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "nginx",
        sts -> ((ObjectNode) sts.at("/metadata/annotations")).remove("service-per-pod-label"));
  }

  private void addOptInAnnotation() {
    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "nginx",
        sts ->
            ((ObjectNode) sts.at("/metadata/annotations"))
                .put("service-per-pod-label", "pod-name"));
  }

  private void setReplicas(int replicas) {
    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "nginx",
        sts -> ((ObjectNode) sts.get("spec")).put("replicas", replicas));
  }

  private void assertNoHotLoopAndValidAttachments() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, "service-per-pod");
  }

  private String verifiedAnnotation() {
    return statefulSet().at("/metadata/annotations/v2-naming-verified").asText("absent");
  }

  private ObjectNode statefulSet() {
    return cluster.get("apps/v1", "StatefulSet", "default", "nginx");
  }

  private ObjectNode service(String name) {
    return cluster.get("v1", "Service", "default", name);
  }

  private ObjectNode pod(String name) {
    return cluster.get("v1", "Pod", "default", name);
  }

  private List<String> serviceNames() {
    return names("v1", "Service");
  }

  private List<String> perPodServiceNames() {
    return serviceNames().stream().filter(name -> name.startsWith("nginx-")).toList();
  }

  private List<String> podNames() {
    return names("v1", "Pod");
  }

  private List<String> names(String apiVersion, String kind) {
    return cluster.list(apiVersion, kind).stream()
        .map(o -> o.at("/metadata/name").asText())
        .sorted()
        .toList();
  }

  private static List<String> finalizers(ObjectNode object) {
    List<String> finalizers = new ArrayList<>();
    object.at("/metadata/finalizers").forEach(f -> finalizers.add(f.asText()));
    return finalizers;
  }
}
