package dev.metahooks.controllers.configmappropagation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.Json;
import dev.metahooks.kube.Copies;
import dev.metahooks.kube.FieldReader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * ConfigMapPropagation ({@code examples.metacontroller.io/v1alpha1}, cluster-scoped) of Metacontroller's
 * examples: copies one source ConfigMap into each listed target namespace, and removes the copies when the
 * source is gone. Customize asks for the source by namespace and name; the parent being cluster-scoped, the
 * source's key is {@code namespace/name} in v1 and v2 alike.
 */
public final class ConfigMapPropagationController {
  private ConfigMapPropagationController() {}

  public static Controller controller() {
    return Controller.composite("configmap-propagation")
        .sync(ConfigMapPropagationController::sync)
        .customize(ConfigMapPropagationController::customize)
        // Of the related source the hook copies the content; of the copies it observes, it counts
        // them.
        .reads("v1", "ConfigMap", "data", "binaryData")
        .build();
  }

  record Spec(String sourceName, String sourceNamespace, List<String> targetNamespaces) {
    static Spec of(ObjectNode parent) {
      FieldReader spec = FieldReader.spec(parent);
      return new Spec(
          spec.requiredString("sourceName"),
          spec.requiredString("sourceNamespace"),
          spec.requiredStringList("targetNamespaces"));
    }
  }

  public static CustomizeResponse customize(CustomizeRequest request) {
    Spec spec = Spec.of(request.parent());
    return CustomizeResponse.of(
        RelatedResourceRule.of("v1", "configmaps")
            .inNamespace(spec.sourceNamespace())
            .withNames(List.of(spec.sourceName())));
  }

  public static CompositeResponse sync(CompositeRequest request) {
    Spec spec = Spec.of(request.parent());
    // As upstream: expected counts the list as written, actual counts the copies Metacontroller
    // observes.
    ObjectNode status =
        Json.object()
            .put("expected_copies", spec.targetNamespaces().size())
            .put("actual_copies", request.children().count("v1", "ConfigMap"));
    Optional<Copies.Source> source =
        Copies.find(
            request.related(), "v1", "ConfigMap", spec.sourceNamespace(), spec.sourceName());
    List<ObjectNode> copies = source.map(s -> copies(s, spec)).orElse(List.of());
    return CompositeResponse.of(status, copies);
  }

  /**
   * One copy per target namespace, in the listed order. A namespace listed twice gets one copy; the source's
   * own namespace gets none, since a "copy" there would be the source itself.
   */
  static List<ObjectNode> copies(Copies.Source source, Spec spec) {
    return Copies.configMaps(
        source,
        new LinkedHashSet<>(spec.targetNamespaces())
            .stream().filter(namespace -> !namespace.equals(spec.sourceNamespace())).toList());
  }
}
