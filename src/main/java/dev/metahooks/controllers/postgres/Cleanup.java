package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.List;

/**
 * What deletion leaves behind otherwise: Patroni's ConfigMaps ({@code <n>-config}, {@code -leader},
 * {@code -failover}, {@code -sync}) are Patroni's, not children, so Metacontroller does not delete them; a
 * cluster created again under the same name would find the old {@code initialize} key and wait for a leader
 * forever. Once the pods are gone, the finalize hook asks for a Job {@code <n>-cleanup} that deletes them,
 * with a ServiceAccount whose Role may delete those ConfigMaps by name and nothing else.
 */
final class Cleanup {
  static final String CONTAINER = "cleanup";

  private Cleanup() {}

  /** The ServiceAccount, Role, RoleBinding and Job, in the order of {@link ObservedCluster#CHILD_TYPES}. */
  static List<ObjectNode> build(String cluster, String namespace, String image, List<String> configMaps) {
    return List.of(serviceAccount(cluster), role(cluster), roleBinding(cluster, namespace), job(cluster, image, configMaps));
  }

  private static ObjectNode serviceAccount(String cluster) {
    ObjectNode account = Json.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
    metadata(account, cluster);
    return account;
  }

  /** Delete and read exactly Patroni's ConfigMaps of this cluster (by name, whichever exist). */
  static ObjectNode role(String cluster) {
    ObjectNode role = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role");
    metadata(role, cluster);
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("apiGroups").add("");
    rule.putArray("resources").add("configmaps");
    ArrayNode names = rule.putArray("resourceNames");
    Names.patroniConfigMaps(cluster).forEach(names::add);
    rule.putArray("verbs").add("get").add("delete");
    return role;
  }

  private static ObjectNode roleBinding(String cluster, String namespace) {
    ObjectNode binding = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "RoleBinding");
    metadata(binding, cluster);
    binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "Role")
        .put("name", Names.cleanup(cluster));
    binding.putArray("subjects").addObject().put("kind", "ServiceAccount").put("name", Names.cleanup(cluster))
        .put("namespace", namespace);
    return binding;
  }

  static ObjectNode job(String cluster, String image, List<String> configMaps) {
    ObjectNode job = Json.object().put("apiVersion", "batch/v1").put("kind", "Job");
    metadata(job, cluster);
    ObjectNode template = job.putObject("spec").put("backoffLimit", 6).putObject("template");
    template.putObject("metadata").putObject("labels")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.MANAGED_BY, Labels.MANAGER)
        .put(Labels.COMPONENT, "cleanup");
    ObjectNode pod = template.putObject("spec")
        .put("restartPolicy", "Never")
        .put("serviceAccountName", Names.cleanup(cluster));
    pod.set("securityContext", PodSecurity.pod());
    ObjectNode container = pod.putArray("containers").addObject()
        .put("name", CONTAINER)
        .put("image", image)
        .put("imagePullPolicy", "IfNotPresent");
    ArrayNode command = container.putArray("command").add("/bin/sh").add("-c").add(script()).add("cleanup");
    configMaps.forEach(command::add);
    container.set("securityContext", PodSecurity.container());
    return job;
  }

  /**
   * Deletes each ConfigMap named as an argument through the API server; one already gone is fine. curl is in
   * Spilo's image (its patroni_wait.sh uses it), so the cluster's own image runs this.
   */
  static String script() {
    return """
        set -eu
        sa=/var/run/secrets/kubernetes.io/serviceaccount
        for name in "$@"; do
          code=$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$sa/ca.crt" \\
            -H "Authorization: Bearer $(cat "$sa/token")" -X DELETE \\
            "https://kubernetes.default.svc/api/v1/namespaces/$(cat "$sa/namespace")/configmaps/$name")
          case "$code" in
            200|202|404) echo "ConfigMap $name: gone" ;;
            *) echo "ConfigMap $name: HTTP $code" >&2; exit 1 ;;
          esac
        done
        """;
  }

  private static void metadata(ObjectNode object, String cluster) {
    object.putObject("metadata").put("name", Names.cleanup(cluster)).set("labels", Labels.child(cluster, "cleanup"));
  }
}
