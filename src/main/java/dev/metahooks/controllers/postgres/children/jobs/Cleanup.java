package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.List;

/**
 * What deletion leaves behind otherwise: Patroni's ConfigMaps ({@code <n>-config}, {@code -leader},
 * {@code -failover}, {@code -sync}) are Patroni's, not children, so Metacontroller does not delete them; a
 * cluster created again under the same name would find the old {@code initialize} key and wait for a leader
 * forever. Once the pods are gone, the finalize hook asks for a Job {@code <n>-cleanup} that deletes them,
 * with a ServiceAccount whose Role may delete those ConfigMaps by name and nothing else.
 */
public final class Cleanup {
  public static final String CONTAINER = "cleanup";

  /**
   * Deletes each ConfigMap named as an argument through the API server, found as every in-cluster client finds
   * it (KUBERNETES_SERVICE_HOST and _PORT, the ServiceAccount's token and CA); one already gone is fine. curl is in
   * Spilo's image (its patroni_wait.sh uses it), so the cluster's own image runs this.
   */
  public static final String SCRIPT = ResourceTexts.load("scripts/cleanup.sh");

  public static final String COMPONENT = "cleanup";

  private Cleanup() {}

  /** The ServiceAccount, Role, RoleBinding and Job, in the order of {@code ChildTypes.ALL}. */
  public static List<ObjectNode> build(
      String cluster,
      String namespace,
      String image,
      PodScheduling placement,
      List<String> configMaps) {
    return PatroniRbac.withAccount(
        role(cluster), cluster, namespace, COMPONENT, job(cluster, image, placement, configMaps));
  }

  /** Delete exactly Patroni's ConfigMaps of this cluster (by name, whichever exist): cleanup.sh's one call. */
  public static ObjectNode role(String cluster) {
    ObjectNode role = PatroniRbac.emptyRole(Names.cleanup(cluster), cluster, COMPONENT);
    RoleRules.of(role).named("", "configmaps", Names.patroniConfigMaps(cluster), "delete");
    return role;
  }

  public static ObjectNode job(
      String cluster, String image, PodScheduling placement, List<String> configMaps) {
    ObjectNode job = Jobs.job(Names.cleanup(cluster), cluster, COMPONENT, placement);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.cleanup(cluster));
    ArrayNode command =
        Jobs.container(pod, CONTAINER, image)
            .putArray("command")
            .add("/bin/sh")
            .add("-c")
            .add(KubeletText.literal(SCRIPT))
            .add("cleanup");
    configMaps.forEach(command::add);
    return job;
  }
}
