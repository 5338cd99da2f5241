package dev.metahooks.controllers.namespacelist;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.List;

/**
 * NamespaceList ({@code examples.metacontroller.io/v1alpha1}, namespaced) of Metacontroller's examples, for hook
 * API v2: lists the Namespaces matching {@code spec.labelSelector} into a ConfigMap {@code <name>-list} beside
 * the parent. Only v2 sends cluster-scoped related objects to a namespaced parent; with v1 the list stays empty.
 */
public final class NamespaceListController {
  private NamespaceListController() {}

  public static Controller controller() {
    return Controller.composite("namespace-list")
        .sync(NamespaceListController::sync)
        .customize(NamespaceListController::customize)
        // Of related Namespaces the hook reads the names.
        .reads("v1", "Namespace")
        .build();
  }

  /** Every Namespace matching the parent's selector; no selector selects every Namespace, as upstream. */
  public static CustomizeResponse customize(CustomizeRequest request) {
    ObjectNode selector =
        FieldReader.spec(request.parent())
            .optionalLabelSelector("labelSelector")
            .orElseGet(Json::object);
    return CustomizeResponse.of(
        RelatedResourceRule.of("v1", "namespaces").withLabelSelector(selector));
  }

  public static CompositeResponse sync(CompositeRequest request) {
    if (request.namespace().isEmpty()) {
      throw new InvalidRequestException(
          "parent.metadata.namespace", "is required: a NamespaceList is namespaced");
    }
    List<String> names = request.related().keys("v1", "Namespace").stream().sorted().toList();
    ObjectNode status = Json.object().put("count", names.size());
    return CompositeResponse.of(status, List.of(list(request.name(), request.namespace(), names)));
  }

  /** The ConfigMap {@code <parent>-list} with the names one per line under {@code data.namespaces}. */
  static ObjectNode list(String parentName, String namespace, List<String> names) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", parentName + "-list").put("namespace", namespace);
    configMap.putObject("data").put("namespaces", String.join("\n", names));
    return configMap;
  }
}
