package dev.metahooks.controlplane;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testing.kube.KubeApi;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's own setting on the shared real control plane: its CRDs (those of manifests/crds, the third-party
 * ones its hooks may render, Metacontroller's), and namespaces ready for pods (their default ServiceAccount made).
 */
public final class ProjectCluster {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final java.util.Set<Path> CRDS_INSTALLED = new java.util.HashSet<>();

  private ProjectCluster() {}

  /** The files of every CRD the project's objects need, applied once per control plane and awaited Established. */
  public static synchronized void installCrds(ControlPlane plane) {
    if (CRDS_INSTALLED.contains(plane.kubeconfig())) {
      return;
    }
    List<String> arguments =
        new ArrayList<>(List.of("apply", "--server-side", "--field-manager=metahooks-tests"));
    for (Path file : crdFiles()) {
      arguments.add("-f");
      arguments.add(file.toString());
    }
    plane.kubectl("", arguments.toArray(String[]::new)).ok();
    plane.kubectl("", "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s").ok();
    CRDS_INSTALLED.add(plane.kubeconfig());
  }

  static List<Path> crdFiles() {
    List<Path> files = new ArrayList<>(Manifests.yamlFiles(Manifests.CRDS));
    files.addAll(Manifests.yamlFiles(Resources.path("crds")));
    Path metacontroller = Resources.projectDir().resolve("controlplane/metacontroller-crds.yaml");
    if (Files.exists(metacontroller)) {
      files.add(metacontroller);
    }
    return files;
  }

  /** Makes {@code name} if it is missing and waits for its default ServiceAccount (pods need it to be admitted). */
  public static void namespace(KubeApi api, String name) {
    ObjectNode namespace = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
    namespace.putObject("metadata").put("name", name);
    createIfMissing(api, namespace, null);
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (!api.get("v1", "ServiceAccount", name, "default").ok()) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "no default ServiceAccount in namespace " + name + " after 30 s");
      }
      sleep(Duration.ofMillis(100));
    }
  }

  /** Makes a ServiceAccount if it is missing: pods that name one are refused until it exists. */
  public static void serviceAccount(KubeApi api, String namespace, String name) {
    ObjectNode account =
        JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", name).put("namespace", namespace);
    createIfMissing(api, account, namespace);
  }

  /** Creates {@code object}; one that exists already (409) is left as it is. */
  private static void createIfMissing(KubeApi api, ObjectNode object, String namespace) {
    KubeApi.Answer created = api.create(object, namespace, false);
    if (!created.ok() && created.code() != 409) {
      created.orThrow();
    }
  }

  public static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
