package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.List;

/**
 * The major upgrade Job {@code <n>-upgrade-<to>} with its ServiceAccount, Role and RoleBinding {@code <n>-upgrade}:
 * {@code kubectl exec} into the primary's Spilo container runs {@code major-upgrade.sh}, which runs Spilo's
 * {@code inplace_upgrade.py} there, as Zalando's postgres-operator does by exec
 * (pkg/cluster/majorversionupgrade.go:249-266 at a7aaad0a: {@code inplace_upgrade.py <number of pods>}). The script
 * must run where Patroni and the data directory are: it stops PostgreSQL, runs pg_upgrade, switches the data
 * directory and restarts Patroni (inplace_upgrade.py:484-646 at zalando/spilo 7cb50bd). kubectl exits with the
 * script's exit code; the Job's {@code podFailurePolicy} fails the Job at once on any other than 0 and puts that code
 * into the Failed condition's message, which is how the hook tells a rollback from a half-done switch
 * ({@link MajorUpgrade}). {@code backoffLimit: 0}: an upgrade is never retried by itself.
 */
public final class UpgradeJobs {
  public static final String COMPONENT = "upgrade";
  public static final String CONTAINER = "upgrade";

  /** Runs in Spilo's container, not in the kubectl image (which has no shell). */
  public static final String SCRIPT = ResourceTexts.load("scripts/major-upgrade.sh");

  private UpgradeJobs() {}

  /** The ServiceAccount, Role and RoleBinding, then the Job, in the order of {@code ChildTypes.ALL}. */
  public static List<ObjectNode> build(
      String cluster,
      String namespace,
      String kubectlImage,
      PodScheduling placement,
      MajorUpgrade.Plan plan,
      String primary,
      int members) {
    return PatroniRbac.withAccount(
        role(cluster, primary),
        cluster,
        namespace,
        COMPONENT,
        job(cluster, namespace, kubectlImage, placement, plan, primary, members));
  }

  /**
   * {@code kubectl exec pod/<primary>}: get that pod (kubectl reads it to check the container), then exec into it,
   * nothing else. Exec is {@code create} on {@code pods/exec} for a POST (SPDY) and {@code get} for the WebSocket
   * upgrade kubectl tries first; from Kubernetes 1.35 the WebSocket one needs {@code create} as well.
   */
  public static ObjectNode role(String cluster, String primary) {
    ObjectNode role = PatroniRbac.emptyRole(Names.upgrade(cluster), cluster, COMPONENT);
    RoleRules.of(role)
        .named("", "pods", List.of(primary), "get")
        .named("", "pods/exec", List.of(primary), "create", "get");
    return role;
  }

  public static ObjectNode job(
      String cluster,
      String namespace,
      String kubectlImage,
      PodScheduling placement,
      MajorUpgrade.Plan plan,
      String primary,
      int members) {
    ObjectNode job = Jobs.job(Names.upgradeJob(cluster, plan.to()), cluster, COMPONENT, placement);
    job.withObjectProperty("metadata")
        .putObject("annotations")
        .put(MajorUpgrade.FROM_ANNOTATION, String.valueOf(plan.from()));
    ObjectNode spec = job.withObjectProperty("spec").put("backoffLimit", 0);
    ObjectNode exitCodes =
        spec.putObject("podFailurePolicy")
            .putArray("rules")
            .addObject()
            .put("action", "FailJob")
            .putObject("onExitCodes")
            .put("containerName", CONTAINER)
            .put("operator", "NotIn");
    exitCodes.putArray("values").add(0);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.upgrade(cluster));
    ArrayNode command = Jobs.container(pod, CONTAINER, kubectlImage).putArray("command");
    for (String arg :
        List.of(
            "kubectl",
            "exec",
            "--namespace",
            namespace,
            "pod/" + primary,
            "--container",
            Spilo.CONTAINER,
            "--",
            "/bin/sh",
            "-c",
            KubeletText.literal(SCRIPT),
            "major-upgrade",
            String.valueOf(plan.from()),
            String.valueOf(plan.to()),
            String.valueOf(members),
            Spilo.PGDATA,
            Spilo.SCRIPTS,
            Spilo.VERSIONS)) {
      command.add(arg);
    }
    return job;
  }
}
