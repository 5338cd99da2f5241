package dev.metahooks.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The schemas of CompositeController and DecoratorController ({@code metacontroller.k8s.io/v1alpha1}) as
 * Metacontroller v4.17.2's own CRDs define them: the project's controlplane/metacontroller-crds.yaml, written from
 * that release's Go API types and shipped in the kit, the file a test control plane applies. So a misspelt field,
 * an unknown update method or a field the real API server would prune (a decorator attachment's
 * {@code statusChecks}) fails a test rather than being dropped on a cluster.
 *
 * <pre>{@code
 * MetacontrollerSchema.assertValid(KubeYaml.read(Path.of("k8s/greeting-controller.yaml")).get(0));
 * }</pre>
 */
public final class MetacontrollerSchema {
  public static final String API_VERSION = "metacontroller.k8s.io/v1alpha1";
  private static final String CRDS = "metacontroller-crds.yaml";

  private static final String CRDS_TEXT = load();
  private static final List<JsonNode> DEFINITIONS = KubeYaml.parse(CRDS_TEXT);
  private static final CrdSchema COMPOSITE = schema("compositecontrollers.metacontroller.k8s.io");
  private static final CrdSchema DECORATOR = schema("decoratorcontrollers.metacontroller.k8s.io");

  private MetacontrollerSchema() {}

  /** The schema of a CompositeController or DecoratorController. */
  public static CrdSchema of(JsonNode controller) {
    return switch (controller.path("kind").asText()) {
      case "CompositeController" -> COMPOSITE;
      case "DecoratorController" -> DECORATOR;
      default ->
          throw new AssertionError("not a Metacontroller controller: " + controller.path("kind"));
    };
  }

  /** Fails with every error unless the object is a valid CompositeController or DecoratorController. */
  public static void assertValid(JsonNode controller) {
    of(controller).assertValid(controller);
  }

  /** The CRDs the schemas come from, as shipped with the kit (its header says which release they follow). */
  public static String crds() {
    return CRDS_TEXT;
  }

  private static String load() {
    try (InputStream in = MetacontrollerSchema.class.getResourceAsStream(CRDS)) {
      if (in == null) {
        throw new IllegalStateException(CRDS + " is missing from the testing kit's class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CrdSchema schema(String crdName) {
    return DEFINITIONS.stream()
        .filter(crd -> crd.path("metadata").path("name").asText().equals(crdName))
        .findFirst()
        .map(crd -> CrdSchema.of(crd, "v1alpha1"))
        .orElseThrow(() -> new IllegalStateException(CRDS + " has no CRD " + crdName));
  }
}
