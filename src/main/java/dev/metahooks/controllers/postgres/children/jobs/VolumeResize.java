package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.plan.VolumeGrowth;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.List;

/**
 * The resize Job {@code <n>-resize-<hash of the size>} with its ServiceAccount, Role and RoleBinding
 * {@code <n>-resize}: it patches each member's data claim to the new size, then deletes the StatefulSet with
 * {@code propagationPolicy: Orphan} ({@link VolumeGrowth}). The Role may patch exactly those claims and delete
 * exactly that StatefulSet. The claims are Kubernetes' own (made by the StatefulSet controller), never children:
 * as children they would be deleted with the cluster, whatever {@code storage.retentionPolicy.whenDeleted} says.
 */
public final class VolumeResize {
  public static final String CONTAINER = "resize";
  public static final String COMPONENT = "resize";

  /** curl through the API server, found as every in-cluster client finds it (as {@link Cleanup}'s script). */
  public static final String SCRIPT = ResourceTexts.load("scripts/resize-volumes.sh");

  private VolumeResize() {}

  /** The ServiceAccount, Role, RoleBinding and Job, in the order of {@code ChildTypes.ALL}. */
  public static List<ObjectNode> build(
      String cluster,
      String namespace,
      String image,
      PodScheduling placement,
      VolumeGrowth.Plan plan) {
    return PatroniRbac.withAccount(
        role(cluster, plan.claims()),
        cluster,
        namespace,
        COMPONENT,
        job(cluster, image, placement, plan));
  }

  /** Patch the claims by name, delete the StatefulSet by name: resize-volumes.sh's calls, and nothing else. */
  public static ObjectNode role(String cluster, List<String> claims) {
    ObjectNode role = PatroniRbac.emptyRole(Names.resize(cluster), cluster, COMPONENT);
    RoleRules.of(role)
        .named("", "persistentvolumeclaims", claims, "patch")
        .named("apps", "statefulsets", List.of(Names.statefulSet(cluster)), "delete");
    return role;
  }

  /** The size is a quantity the spec reader checked (digits, a dot, a suffix): it is safe inside the JSON patch. */
  public static ObjectNode job(
      String cluster, String image, PodScheduling placement, VolumeGrowth.Plan plan) {
    ObjectNode job = Jobs.job(Names.resizeJob(cluster, plan.size()), cluster, COMPONENT, placement);
    // One claim patched twice is the same claim: a retry starts again from the first.
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.resize(cluster));
    ArrayNode command =
        Jobs.container(pod, CONTAINER, image)
            .putArray("command")
            .add("/bin/sh")
            .add("-c")
            .add(KubeletText.literal(SCRIPT))
            .add("resize-volumes")
            .add(plan.size())
            .add(Names.statefulSet(cluster));
    plan.claims().forEach(command::add);
    return job;
  }
}
