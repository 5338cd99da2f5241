package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import java.util.List;

/**
 * ServiceAccount, Role and RoleBinding {@code <n>-patroni}: what Patroni needs in the cluster's namespace when
 * it keeps its state in ConfigMaps ({@code KUBERNETES_USE_CONFIGMAPS}): its ConfigMaps, the pods (to find
 * members and set the role label), and reading Endpoints. Nothing else.
 */
public final class PatroniRbac {
  private PatroniRbac() {}

  public static List<ObjectNode> build(String cluster, String namespace) {
    return List.of(serviceAccount(Names.patroni(cluster), cluster, "patroni"), role(cluster),
        roleBinding(Names.patroni(cluster), cluster, namespace, "patroni"));
  }

  /**
   * A Job that talks to the API server, with what it may do: a ServiceAccount and RoleBinding named as the
   * {@code role}, the role, and the Job (which names that ServiceAccount itself), in the order of
   * {@code ObservedCluster.CHILD_TYPES}.
   */
  public static List<ObjectNode> withAccount(ObjectNode role, String cluster, String namespace, String component,
      ObjectNode job) {
    String name = role.at("/metadata/name").asText();
    return List.of(serviceAccount(name, cluster, component), role, roleBinding(name, cluster, namespace, component),
        job);
  }

  /** A ServiceAccount of the cluster; the same name is used for its Role and RoleBinding. */
  public static ObjectNode serviceAccount(String name, String cluster, String component) {
    ObjectNode account = Json.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
    metadata(account, name, cluster, component);
    return account;
  }

  public static ObjectNode role(String cluster) {
    ObjectNode role = emptyRole(Names.patroni(cluster), cluster, "patroni");
    ArrayNode rules = role.putArray("rules");
    rule(rules, "configmaps", "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    rule(rules, "endpoints", "get");
    rule(rules, "pods", "get", "list", "patch", "update", "watch");
    return role;
  }

  public static ObjectNode emptyRole(String name, String cluster, String component) {
    ObjectNode role = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role");
    metadata(role, name, cluster, component);
    return role;
  }

  /** Binds the Role {@code name} to the ServiceAccount {@code name}. */
  public static ObjectNode roleBinding(String name, String cluster, String namespace, String component) {
    ObjectNode binding = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "RoleBinding");
    metadata(binding, name, cluster, component);
    binding.putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", name);
    binding.putArray("subjects").addObject()
        .put("kind", "ServiceAccount")
        .put("name", name)
        .put("namespace", namespace);
    return binding;
  }

  private static void metadata(ObjectNode object, String name, String cluster, String component) {
    object.putObject("metadata").put("name", name).set("labels", Labels.child(cluster, component));
  }

  private static void rule(ArrayNode rules, String resource, String... verbs) {
    ObjectNode rule = rules.addObject();
    rule.putArray("apiGroups").add("");
    rule.putArray("resources").add(resource);
    ArrayNode verbList = rule.putArray("verbs");
    for (String verb : verbs) {
      verbList.add(verb);
    }
  }
}
