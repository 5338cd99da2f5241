package dev.metahooks.controllers.postgres.children.backup;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.KubeletText;
import java.time.Duration;
import java.util.List;

/**
 * What the hook can see of physical backups, which run where it cannot look (base backups in Spilo's cron, WAL in
 * {@code archive_command}): CronJob {@code <n>-store-check} reads {@code pg_stat_archiver} on the primary and lists
 * the store in WAL-G's layout, and writes what it found into the data of ConfigMap {@code <n>-backup-health}. The
 * hook renders that ConfigMap without data and never sets any: Metacontroller's merge keeps every field the hook
 * does not set (docs/metacontroller.md, section 8.3), and a change of the child's data starts a sync (section 8.8),
 * so the report reaches status within a sync. Its Role may patch that one ConfigMap and nothing else.
 */
public final class StoreChecks {
  public static final String COMPONENT = "store-check";
  public static final String CONTAINER = "store-check";

  /** Every ten minutes, in UTC. */
  public static final String SCHEDULE = "*/10 * * * *";

  /** A report older than three missed runs says nothing of now. */
  public static final Duration STALE_AFTER = Duration.ofMinutes(35);

  public static final String SCRIPT =
      ResourceTexts.load("scripts/store-common.sh") + ResourceTexts.load("scripts/store-check.sh");

  private StoreChecks() {}

  /** The CronJob, its ServiceAccount, Role and RoleBinding, and the report's ConfigMap. */
  public static List<ObjectNode> children(
      String cluster, String namespace, ClusterSpec spec, BackupSpec.Backup backup) {
    String name = Names.storeCheck(cluster);
    return List.of(
        PatroniRbac.serviceAccount(name, cluster, COMPONENT),
        role(cluster),
        PatroniRbac.roleBinding(name, cluster, namespace, COMPONENT),
        cronJob(cluster, namespace, spec, backup),
        reportConfigMap(cluster));
  }

  /** Labels only: the data is the check's. */
  public static ObjectNode reportConfigMap(String cluster) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap
        .putObject("metadata")
        .put("name", Names.backupHealth(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    return configMap;
  }

  /** Patch the report's ConfigMap by name: store-check.sh's one call. */
  static ObjectNode role(String cluster) {
    ObjectNode role = PatroniRbac.emptyRole(Names.storeCheck(cluster), cluster, COMPONENT);
    RoleRules.of(role).named("", "configmaps", List.of(Names.backupHealth(cluster)), "patch");
    return role;
  }

  /** One run at a time; a failed run is not retried (the next one comes in ten minutes). */
  static ObjectNode cronJob(
      String cluster, String namespace, ClusterSpec spec, BackupSpec.Backup backup) {
    ObjectNode job =
        Jobs.job(Names.storeCheck(cluster), cluster, COMPONENT, spec.scheduling().jobs());
    ((ObjectNode) job.get("spec")).put("backoffLimit", 0).put("activeDeadlineSeconds", 300);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.storeCheck(cluster));
    String image =
        backup
            .logical()
            .map(BackupSpec.Logical::image)
            .orElse(BackupSpecReader.DEFAULT_LOGICAL_IMAGE);
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    container
        .putArray("command")
        .add("/bin/bash")
        .add("-c")
        .add(KubeletText.literal(SCRIPT))
        .add(COMPONENT);
    ArrayNode env = Jobs.primaryConnection(cluster, namespace, Names.storeCheck(cluster));
    env.addObject().put("name", "PGVERSION").put("value", String.valueOf(spec.postgresVersion()));
    // The AWS CLI keeps caches under $HOME; the pod's user may have none.
    env.addObject().put("name", "HOME").put("value", "/tmp");
    LogicalBackups.store(env, backup.s3());
    env.addObject().put("name", "REPORT_CONFIGMAP").put("value", Names.backupHealth(cluster));
    container.set("env", env);
    return CronJobs.of(job, SCHEDULE, 300, 1, 3);
  }
}
