package dev.metahooks.controllers.secretpropagation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.kube.Copies;
import dev.metahooks.kube.FieldReader;
import java.util.List;
import java.util.Optional;

/**
 * SecretPropagation ({@code examples.metacontroller.io/v1alpha1}, cluster-scoped) of Metacontroller's examples:
 * copies one source Secret into every namespace whose labels match {@code spec.targetNamespaceLabelSelector},
 * except the source's own. Metacontroller does the selecting: customize asks for the source Secret by
 * namespace and name and for the Namespaces matching the selector, and sync copies into those it sends.
 */
public final class SecretPropagationController {
  private SecretPropagationController() {}

  public static Controller controller() {
    return Controller.composite("secret-propagation")
        .sync(SecretPropagationController::sync)
        .customize(SecretPropagationController::customize)
        // Of the related source the hook copies the content; of related Namespaces it reads the
        // names.
        .reads("v1", "Secret", "data")
        .reads("v1", "Namespace")
        .build();
  }

  record Source(String name, String namespace) {
    static Source of(FieldReader spec) {
      return new Source(spec.requiredString("sourceName"), spec.requiredString("sourceNamespace"));
    }
  }

  public static CustomizeResponse customize(CustomizeRequest request) {
    FieldReader spec = FieldReader.spec(request.parent());
    Source source = Source.of(spec);
    // Required: an absent selector would select every namespace of the cluster.
    ObjectNode targets = spec.requiredLabelSelector("targetNamespaceLabelSelector");
    return CustomizeResponse.of(
        RelatedResourceRule.of("v1", "secrets")
            .inNamespace(source.namespace())
            .withNames(List.of(source.name())),
        RelatedResourceRule.of("v1", "namespaces").withLabelSelector(targets));
  }

  public static CompositeResponse sync(CompositeRequest request) {
    Source spec = Source.of(FieldReader.spec(request.parent()));
    ObjectNode status = Json.object().put("working", "fine");
    Optional<Copies.Source> source =
        Copies.find(request.related(), "v1", "Secret", spec.namespace(), spec.name());
    List<ObjectNode> copies = source.map(s -> copies(s, request.related(), spec)).orElse(List.of());
    return CompositeResponse.of(status, copies);
  }

  /** One copy per related Namespace but the source's, by namespace name. */
  static List<ObjectNode> copies(Copies.Source source, ObjectMap related, Source spec) {
    return Copies.secrets(
        source,
        related.entries("v1", "Namespace").stream()
            .map(ObjectMap.Entry::name)
            .filter(namespace -> !namespace.equals(spec.namespace()))
            .sorted()
            .distinct()
            .toList());
  }
}
