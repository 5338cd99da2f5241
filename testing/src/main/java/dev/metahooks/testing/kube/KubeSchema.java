package dev.metahooks.testing.kube;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A strict schema check of built-in Kubernetes objects: the object is read into fabric8's typed model with
 * no type coercion, and any property the model does not know (fabric8 keeps those in
 * {@code additionalProperties}) fails the check with its path. Objects of kinds the model lacks (custom
 * resources) are reported so that callers can check them against their CRD instead.
 */
public final class KubeSchema {
  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .withCoercionConfig(
              LogicalType.Textual,
              c ->
                  c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          .build();

  private static final Map<String, String> TYPES =
      Map.ofEntries(
          Map.entry("v1/Pod", "io.fabric8.kubernetes.api.model.Pod"),
          Map.entry("v1/Service", "io.fabric8.kubernetes.api.model.Service"),
          Map.entry("v1/ConfigMap", "io.fabric8.kubernetes.api.model.ConfigMap"),
          Map.entry("v1/Secret", "io.fabric8.kubernetes.api.model.Secret"),
          Map.entry("v1/ServiceAccount", "io.fabric8.kubernetes.api.model.ServiceAccount"),
          Map.entry(
              "v1/PersistentVolumeClaim", "io.fabric8.kubernetes.api.model.PersistentVolumeClaim"),
          Map.entry("v1/Namespace", "io.fabric8.kubernetes.api.model.Namespace"),
          Map.entry("v1/Endpoints", "io.fabric8.kubernetes.api.model.Endpoints"),
          Map.entry("v1/Event", "io.fabric8.kubernetes.api.model.Event"),
          Map.entry("v1/LimitRange", "io.fabric8.kubernetes.api.model.LimitRange"),
          Map.entry("v1/ResourceQuota", "io.fabric8.kubernetes.api.model.ResourceQuota"),
          Map.entry(
              "v1/ReplicationController", "io.fabric8.kubernetes.api.model.ReplicationController"),
          Map.entry("v1/PodTemplate", "io.fabric8.kubernetes.api.model.PodTemplate"),
          Map.entry("v1/Node", "io.fabric8.kubernetes.api.model.Node"),
          Map.entry("v1/PersistentVolume", "io.fabric8.kubernetes.api.model.PersistentVolume"),
          Map.entry(
              "apps/v1/ControllerRevision",
              "io.fabric8.kubernetes.api.model.apps.ControllerRevision"),
          Map.entry(
              "networking.k8s.io/v1/Ingress",
              "io.fabric8.kubernetes.api.model.networking.v1.Ingress"),
          Map.entry(
              "networking.k8s.io/v1/IngressClass",
              "io.fabric8.kubernetes.api.model.networking.v1.IngressClass"),
          Map.entry("apps/v1/StatefulSet", "io.fabric8.kubernetes.api.model.apps.StatefulSet"),
          Map.entry("apps/v1/ReplicaSet", "io.fabric8.kubernetes.api.model.apps.ReplicaSet"),
          Map.entry("apps/v1/DaemonSet", "io.fabric8.kubernetes.api.model.apps.DaemonSet"),
          Map.entry("apps/v1/Deployment", "io.fabric8.kubernetes.api.model.apps.Deployment"),
          Map.entry("batch/v1/Job", "io.fabric8.kubernetes.api.model.batch.v1.Job"),
          Map.entry("batch/v1/CronJob", "io.fabric8.kubernetes.api.model.batch.v1.CronJob"),
          Map.entry(
              "policy/v1/PodDisruptionBudget",
              "io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget"),
          Map.entry(
              "networking.k8s.io/v1/NetworkPolicy",
              "io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy"),
          Map.entry(
              "apiextensions.k8s.io/v1/CustomResourceDefinition",
              "io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition"),
          Map.entry(
              "rbac.authorization.k8s.io/v1/Role", "io.fabric8.kubernetes.api.model.rbac.Role"),
          Map.entry(
              "rbac.authorization.k8s.io/v1/RoleBinding",
              "io.fabric8.kubernetes.api.model.rbac.RoleBinding"),
          Map.entry(
              "rbac.authorization.k8s.io/v1/ClusterRole",
              "io.fabric8.kubernetes.api.model.rbac.ClusterRole"),
          Map.entry(
              "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
              "io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding"));

  private KubeSchema() {}

  /** Whether the typed model knows this object's apiVersion and kind. */
  public static boolean knows(JsonNode object) {
    return TYPES.containsKey(typeKey(object));
  }

  /** The typed model's class for this object's apiVersion and kind, if it has one. */
  public static Optional<Class<?>> modelClass(JsonNode object) {
    String type = TYPES.get(typeKey(object));
    if (type == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Class.forName(type));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the typed model lacks " + type, e);
    }
  }

  /** Fails the test unless the object is a valid built-in object of a kind the model knows. */
  public static void assertValid(JsonNode object) {
    String type = TYPES.get(typeKey(object));
    if (type == null) {
      fail("no typed model for " + typeKey(object) + "; check it against its CRD instead");
    }
    Object typed;
    try {
      typed = STRICT.treeToValue(object, Class.forName(type));
    } catch (Exception e) {
      throw new AssertionError(
          typeKey(object)
              + " "
              + object.path("metadata").path("name").asText()
              + " does not fit the Kubernetes schema: "
              + e.getMessage(),
          e);
    }
    List<String> unknown = new ArrayList<>();
    collectUnknown(typed, typeKey(object), unknown, new IdentityHashMap<>());
    if (!unknown.isEmpty()) {
      fail(
          typeKey(object)
              + " "
              + object.path("metadata").path("name").asText()
              + " has unknown properties: "
              + unknown);
    }
    if (object.path("metadata").path("name").asText().isEmpty()) {
      fail(typeKey(object) + " has no metadata.name");
    }
  }

  private static String typeKey(JsonNode object) {
    return object.path("apiVersion").asText() + "/" + object.path("kind").asText();
  }

  /** Walks the typed object graph and lists every non-empty additionalProperties map. */
  private static void collectUnknown(
      Object value, String path, List<String> unknown, Map<Object, Object> seen) {
    if (value == null || seen.containsKey(value)) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> collectUnknown(v, path + "." + k, unknown, seen));
      return;
    }
    if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        collectUnknown(item, path + "[" + i++ + "]", unknown, seen);
      }
      return;
    }
    if (!(value instanceof KubernetesResource)) {
      return;
    }
    seen.put(value, value);
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || !getter.getName().startsWith("get")
          || getter.getName().equals("getClass")) {
        continue;
      }
      Object child;
      try {
        child = getter.invoke(value);
      } catch (ReflectiveOperationException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          unknown.add(path + ": " + extra.keySet());
        }
      } else {
        String name = getter.getName().substring(3);
        collectUnknown(
            child,
            path + "." + Character.toLowerCase(name.charAt(0)) + name.substring(1),
            unknown,
            seen);
      }
    }
  }
}
