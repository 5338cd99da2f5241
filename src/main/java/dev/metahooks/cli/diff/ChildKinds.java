package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The kind of a child resource a CompositeController names by plural ({@code spec.childResources[].resource}), where
 * Metacontroller asks the API server's discovery: the built-in kinds a controller's children usually are, the kinds of
 * the objects given, and the kinds that CustomResourceDefinitions among them define.
 */
final class ChildKinds {
  private static final Map<String, String> BUILT_IN =
      Map.ofEntries(
          Map.entry("v1 pods", "Pod"),
          Map.entry("v1 services", "Service"),
          Map.entry("v1 configmaps", "ConfigMap"),
          Map.entry("v1 secrets", "Secret"),
          Map.entry("v1 serviceaccounts", "ServiceAccount"),
          Map.entry("v1 persistentvolumeclaims", "PersistentVolumeClaim"),
          Map.entry("v1 namespaces", "Namespace"),
          Map.entry("v1 endpoints", "Endpoints"),
          Map.entry("apps/v1 statefulsets", "StatefulSet"),
          Map.entry("apps/v1 deployments", "Deployment"),
          Map.entry("apps/v1 replicasets", "ReplicaSet"),
          Map.entry("apps/v1 daemonsets", "DaemonSet"),
          Map.entry("batch/v1 jobs", "Job"),
          Map.entry("batch/v1 cronjobs", "CronJob"),
          Map.entry("policy/v1 poddisruptionbudgets", "PodDisruptionBudget"),
          Map.entry("networking.k8s.io/v1 networkpolicies", "NetworkPolicy"),
          Map.entry("networking.k8s.io/v1 ingresses", "Ingress"),
          Map.entry("rbac.authorization.k8s.io/v1 roles", "Role"),
          Map.entry("rbac.authorization.k8s.io/v1 rolebindings", "RoleBinding"),
          Map.entry("rbac.authorization.k8s.io/v1 clusterroles", "ClusterRole"),
          Map.entry("rbac.authorization.k8s.io/v1 clusterrolebindings", "ClusterRoleBinding"),
          Map.entry("autoscaling/v2 horizontalpodautoscalers", "HorizontalPodAutoscaler"),
          Map.entry("storage.k8s.io/v1 storageclasses", "StorageClass"),
          Map.entry(
              "apiextensions.k8s.io/v1 customresourcedefinitions", "CustomResourceDefinition"),
          Map.entry("monitoring.coreos.com/v1 podmonitors", "PodMonitor"),
          Map.entry("monitoring.coreos.com/v1 servicemonitors", "ServiceMonitor"));

  private final Map<String, String> known = new HashMap<>(BUILT_IN);

  /** Also the kinds of these objects (by the usual plural of their kind) and those their CRDs define. */
  ChildKinds(List<JsonNode> objects) {
    for (JsonNode object : objects) {
      String apiVersion = object.path("apiVersion").asText();
      String kind = object.path("kind").asText();
      if (kind.equals("CustomResourceDefinition")) {
        JsonNode spec = object.path("spec");
        for (JsonNode version : spec.path("versions")) {
          known.put(
              spec.path("group").asText()
                  + "/"
                  + version.path("name").asText()
                  + " "
                  + spec.at("/names/plural").asText(),
              spec.at("/names/kind").asText());
        }
      } else if (!kind.isEmpty()) {
        known.putIfAbsent(apiVersion + " " + plural(kind), kind);
      }
    }
  }

  Optional<String> kindOf(String apiVersion, String resource) {
    return Optional.ofNullable(known.get(apiVersion + " " + resource));
  }

  /** Kubernetes' usual plural of a kind: lower case, and -s, -es or -ies. */
  private static String plural(String kind) {
    String lower = kind.toLowerCase(Locale.ROOT);
    if (lower.endsWith("y") && !lower.matches(".*[aeiou]y")) {
      return lower.substring(0, lower.length() - 1) + "ies";
    }
    return lower.matches(".*(s|x|z|ch|sh)") ? lower + "es" : lower + "s";
  }
}
