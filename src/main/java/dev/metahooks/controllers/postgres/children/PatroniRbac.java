package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import java.util.List;

/**
 * ServiceAccount, Role and RoleBinding {@code <n>-patroni}: what Patroni needs in the cluster's namespace when it
 * keeps its state in ConfigMaps ({@code KUBERNETES_USE_CONFIGMAPS}), and no more: it may write its own cluster's pods
 * and ConfigMaps by name, never another cluster's. Every member runs as this one account, so each may patch each
 * member's pod (Patroni patches only its own, but RBAC cannot tell the members apart).
 *
 * <p>What Patroni calls (patroni/dcs/kubernetes.py of Patroni 4.1.4; the same calls at other lines in 3.0.2):
 *
 * <ul>
 *   <li>pods: {@code list} and {@code watch} with the cluster's label selector (its member cache, 799-801, through
 *       ObjectCache._list and _watch, 617-626), and {@code patch} of its own pod's role label and status annotation
 *       (touch_member, 1399);
 *   <li>ConfigMaps: {@code list} and {@code watch} with the same selector (803-805), {@code create} and {@code patch}
 *       of its scope's ConfigMaps (_patch_or_create, 1112 and 1115), {@code get} of the leader ConfigMap after a
 *       conflict (1217, 1323). Their names are the scope's paths with {@code /} turned into {@code -} (client_path,
 *       813, under a base path of the scope alone, 767): {@code <n>-config}, {@code <n>-leader} (the leader path
 *       keeps its suffix without use_endpoints, 816-817), {@code <n>-failover} and {@code <n>-sync}
 *       (dcs/__init__.py:1576-1618).
 * </ul>
 *
 * <p>Not granted: Endpoints (written only with use_endpoints, 1120-1124; the {@code kubernetes} Endpoints that
 * bypass_api_service reads, 289, are in namespace {@code default}, which no Role here can reach, and on the refusal
 * Patroni turns bypass_api_service off, 317-319), {@code update} (Patroni patches), {@code delete} and
 * {@code deletecollection} of ConfigMaps (only {@code patronictl remove} deletes, delete_cluster 1431-1433 from
 * ctl.py:997; the cleanup Job removes the ConfigMaps of a deleted cluster, {@code jobs.Cleanup}).
 *
 * <p>RBAC cannot limit {@code list}, {@code watch} (Patroni selects by label, not by a {@code metadata.name} field
 * selector) or {@code create} (the name is not known when the request is authorized) to names: those three stay on
 * every pod or ConfigMap of the namespace. So Patroni can read every pod and ConfigMap of the namespace and create a
 * ConfigMap under any name not taken yet (another cluster's {@code -failover} before that cluster made one, say);
 * it can change no pod and no ConfigMap but its own cluster's.
 */
public final class PatroniRbac {
  private PatroniRbac() {}

  /** The account, its Role over the pods {@code members} ({@code Members}) and the binding. */
  public static List<ObjectNode> build(String cluster, String namespace, List<String> members) {
    return List.of(
        serviceAccount(Names.patroni(cluster), cluster, "patroni"),
        role(cluster, members),
        roleBinding(Names.patroni(cluster), cluster, namespace, "patroni"));
  }

  /**
   * A Job that talks to the API server, with what it may do: a ServiceAccount and RoleBinding named as the
   * {@code role}, the role, and the Job (which names that ServiceAccount itself), in the order of
   * {@code ChildTypes.ALL}.
   */
  public static List<ObjectNode> withAccount(
      ObjectNode role, String cluster, String namespace, String component, ObjectNode job) {
    String name = role.at("/metadata/name").asText();
    return List.of(
        serviceAccount(name, cluster, component),
        role,
        roleBinding(name, cluster, namespace, component),
        job);
  }

  /** A ServiceAccount of the cluster; the same name is used for its Role and RoleBinding. */
  public static ObjectNode serviceAccount(String name, String cluster, String component) {
    ObjectNode account = Json.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
    metadata(account, name, cluster, component);
    return account;
  }

  public static ObjectNode role(String cluster, List<String> members) {
    ObjectNode role = emptyRole(Names.patroni(cluster), cluster, "patroni");
    RoleRules.of(role)
        .anyName("", "configmaps", "create", "list", "watch")
        .named("", "configmaps", Names.patroniConfigMaps(cluster), "get", "patch")
        .anyName("", "pods", "list", "watch")
        .named("", "pods", members, "patch");
    return role;
  }

  public static ObjectNode emptyRole(String name, String cluster, String component) {
    ObjectNode role =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role");
    metadata(role, name, cluster, component);
    return role;
  }

  /** Binds the Role {@code name} to the ServiceAccount {@code name}. */
  public static ObjectNode roleBinding(
      String name, String cluster, String namespace, String component) {
    ObjectNode binding =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "RoleBinding");
    metadata(binding, name, cluster, component);
    binding
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", name);
    binding
        .putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", name)
        .put("namespace", namespace);
    return binding;
  }

  private static void metadata(ObjectNode object, String name, String cluster, String component) {
    object.putObject("metadata").put("name", name).set("labels", Labels.child(cluster, component));
  }
}
