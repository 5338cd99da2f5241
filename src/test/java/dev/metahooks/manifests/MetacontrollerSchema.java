package dev.metahooks.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.CrdSchema;
import dev.metahooks.testing.Manifests;
import java.nio.file.Path;
import java.util.List;

/**
 * The schemas of CompositeController and DecoratorController ({@code metacontroller.k8s.io/v1alpha1}) as
 * Metacontroller's own CRDs define them (src/test/resources/metacontroller/metacontroller-crds-v1.yaml, a copy
 * of manifests/production/metacontroller-crds-v1.yaml of release v4.17.2), so a misspelt field, an unknown
 * update method or a field the real API server would prune (a decorator attachment's {@code statusChecks})
 * fails a test rather than being dropped on a cluster.
 */
final class MetacontrollerSchema {
  static final String API_VERSION = "metacontroller.k8s.io/v1alpha1";
  static final Path CRDS = Path.of("src/test/resources/metacontroller/metacontroller-crds-v1.yaml");

  private static final List<JsonNode> DEFINITIONS = Manifests.read(CRDS);
  private static final CrdSchema COMPOSITE = schema("compositecontrollers.metacontroller.k8s.io");
  private static final CrdSchema DECORATOR = schema("decoratorcontrollers.metacontroller.k8s.io");

  private MetacontrollerSchema() {}

  /** The schema of a CompositeController or DecoratorController. */
  static CrdSchema of(JsonNode controller) {
    return switch (controller.path("kind").asText()) {
      case "CompositeController" -> COMPOSITE;
      case "DecoratorController" -> DECORATOR;
      default -> throw new AssertionError("not a Metacontroller controller: " + controller.path("kind"));
    };
  }

  private static CrdSchema schema(String crdName) {
    return DEFINITIONS.stream().filter(crd -> crd.path("metadata").path("name").asText().equals(crdName))
        .findFirst().map(crd -> CrdSchema.of(crd, "v1alpha1"))
        .orElseThrow(() -> new IllegalStateException(CRDS + " has no CRD " + crdName));
  }
}
