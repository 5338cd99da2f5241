package dev.metahooks.controllers.globalconfigmap;

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
import dev.metahooks.kube.Description;
import dev.metahooks.kube.TypedParent;
import java.util.List;
import java.util.Optional;

/**
 * GlobalConfigMap ({@code examples.metacontroller.io/v1alpha1}, cluster-scoped) of Metacontroller's examples:
 * copies one source ConfigMap into every namespace of the cluster but the source's own. Customize asks for the
 * source by namespace and name and for all Namespaces ({@code labelSelector: {}}), so that a new namespace
 * triggers a sync.
 */
public final class GlobalConfigMapController {
  private GlobalConfigMapController() {}

  public static Controller controller() {
    return Controller.composite("global-configmap")
        .sync(GlobalConfigMapController::sync)
        .customize(GlobalConfigMapController::customize)
        // Of the related source the hook copies the content; of related Namespaces it reads the
        // names.
        .reads("v1", "ConfigMap", "data", "binaryData")
        .reads("v1", "Namespace")
        .build();
  }

  /** The parent's spec; the CRD's schema is generated from it ({@code GlobalConfigMapSchemaTest}). */
  record Spec(
      @Description("Name of configmap to propagate") String sourceName,
      @Description("Namespace in which configmap to propagate is located")
          String sourceNamespace) {}

  /** The parent's status. */
  record Status(String working) {}

  static final TypedParent<Spec, Status> PARENT = TypedParent.of(Spec.class, Status.class);

  public static CustomizeResponse customize(CustomizeRequest request) {
    Spec spec = PARENT.spec(request.parent());
    return CustomizeResponse.of(
        RelatedResourceRule.of("v1", "configmaps")
            .inNamespace(spec.sourceNamespace())
            .withNames(List.of(spec.sourceName())),
        RelatedResourceRule.of("v1", "namespaces").withLabelSelector(Json.object()));
  }

  public static CompositeResponse sync(CompositeRequest request) {
    Spec spec = PARENT.spec(request.parent());
    ObjectNode status = PARENT.status(new Status("fine"));
    Optional<Copies.Source> source =
        Copies.find(
            request.related(), "v1", "ConfigMap", spec.sourceNamespace(), spec.sourceName());
    List<ObjectNode> copies = source.map(s -> copies(s, request.related(), spec)).orElse(List.of());
    return CompositeResponse.of(status, copies);
  }

  /** One copy per related Namespace but the source's, by namespace name; terminating namespaces included. */
  static List<ObjectNode> copies(Copies.Source source, ObjectMap related, Spec spec) {
    return Copies.configMaps(
        source,
        related.entries("v1", "Namespace").stream()
            .map(ObjectMap.Entry::name)
            .filter(namespace -> !namespace.equals(spec.sourceNamespace()))
            .sorted()
            .distinct()
            .toList());
  }
}
