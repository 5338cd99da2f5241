package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.List;

/**
 * The restart Job {@code <n>-restart-<hash>} of a rollout step, with its ServiceAccount, Role and RoleBinding
 * {@code <n>-restart}: it deletes one member's pod (the one observed, by uid), and the StatefulSet controller, under
 * {@code updateStrategy: OnDelete}, creates it again from the current template. The Role may delete exactly that
 * pod. The hook decides which pod and when ({@link Rollout}); the StatefulSet controller never restarts one itself.
 */
public final class Restarts {
  public static final String CONTAINER = "restart";
  public static final String COMPONENT = "restart";

  /** curl through the API server, found as every in-cluster client finds it (as {@link Cleanup}'s script). */
  public static final String SCRIPT = ResourceTexts.load("scripts/restart-member.sh");

  private Restarts() {}

  /** The ServiceAccount, Role, RoleBinding and Job, in the order of {@code ChildTypes.ALL}. */
  public static List<ObjectNode> build(
      String cluster,
      String namespace,
      String image,
      PodScheduling placement,
      Rollout.Restart restart) {
    return PatroniRbac.withAccount(
        role(cluster, restart.pod()),
        cluster,
        namespace,
        COMPONENT,
        job(cluster, image, placement, restart));
  }

  /** Delete the pod by name, nothing else: restart-member.sh's one call. */
  public static ObjectNode role(String cluster, String pod) {
    ObjectNode role = PatroniRbac.emptyRole(Names.restart(cluster), cluster, COMPONENT);
    RoleRules.of(role).named("", "pods", List.of(pod), "delete");
    return role;
  }

  /**
   * The pod and its uid as named variables ({@link Rollout.Restart#POD}, {@link Rollout.Restart#UID}), read back from an observed Job by name.
   * The pod's name comes from the cluster's (a DNS label) and its uid from the API server: neither holds a {@code $}.
   */
  public static ObjectNode job(
      String cluster, String image, PodScheduling placement, Rollout.Restart restart) {
    ObjectNode job = Jobs.job(restart.job(), cluster, COMPONENT, placement);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.restart(cluster));
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    container.putArray("command").add("/bin/sh").add("-c").add(KubeletText.literal(SCRIPT));
    ArrayNode env = container.putArray("env");
    env.addObject().put("name", Rollout.Restart.POD).put("value", restart.pod());
    env.addObject().put("name", Rollout.Restart.UID).put("value", restart.uid());
    return job;
  }
}
