package dev.metahooks.controllers.configmaplist;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.kube.FieldReader;
import java.util.List;

/**
 * ConfigMapList ({@code examples.metacontroller.io/v1alpha1}, namespaced) of Metacontroller's examples, for hook
 * API v2: lists the ConfigMaps labelled {@code spec.sourceLabels}, in {@code spec.sourceNamespace} or in every
 * namespace, as {@code namespace/name} lines in a ConfigMap {@code <name>-list} beside the parent.
 */
public final class ConfigMapListController {
  private ConfigMapListController() {}

  public static Controller controller() {
    return Controller.composite("configmap-list")
        .sync(ConfigMapListController::sync)
        .customize(ConfigMapListController::customize)
        // Of related ConfigMaps the hook reads the names.
        .reads("v1", "ConfigMap")
        .build();
  }

  public static CustomizeResponse customize(CustomizeRequest request) {
    FieldReader spec = FieldReader.spec(request.parent());
    // Required: without labels the rule would select every ConfigMap of the cluster.
    ObjectNode selector = Json.object();
    selector.set("matchLabels", spec.requiredStringMap("sourceLabels"));
    RelatedResourceRule rule =
        RelatedResourceRule.of("v1", "configmaps").withLabelSelector(selector);
    // No namespace: every namespace (v2 lets a namespaced parent look beyond its own).
    return CustomizeResponse.of(
        spec.optionalString("sourceNamespace").map(rule::inNamespace).orElse(rule));
  }

  public static CompositeResponse sync(CompositeRequest request) {
    if (request.namespace().isEmpty()) {
      throw new InvalidRequestException(
          "parent.metadata.namespace", "is required: a ConfigMapList is namespaced");
    }
    List<String> keys =
        request.related().entries("v1", "ConfigMap").stream()
            .map(ConfigMapListController::qualifiedName)
            .sorted()
            .distinct()
            .toList();
    ObjectNode status = Json.object().put("count", keys.size());
    return CompositeResponse.of(status, List.of(list(request.name(), request.namespace(), keys)));
  }

  /** The v2 key of an object, whatever version the request used: {@code namespace/name}. */
  static String qualifiedName(ObjectMap.Entry entry) {
    return entry.namespace().isEmpty() ? entry.name() : entry.namespace() + "/" + entry.name();
  }

  /** The ConfigMap {@code <parent>-list} with the keys one per line under {@code data.configmaps}. */
  static ObjectNode list(String parentName, String namespace, List<String> keys) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", parentName + "-list").put("namespace", namespace);
    configMap.putObject("data").put("configmaps", String.join("\n", keys));
    return configMap;
  }
}
