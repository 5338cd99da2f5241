package dev.metahooks.controllers.postgres.children.backup;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.ApiToken;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.RoleRules;
import dev.metahooks.controllers.postgres.plan.BackupJobs;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The children of {@code spec.backup} and {@code spec.bootstrap.logical}: the base backup Jobs' ServiceAccount,
 * Role and RoleBinding {@code <n>-backup}, the logical backup CronJob, one Job per on-demand entry ({@code
 * <n>.backup-<entry>}, kept while the entry is listed; Jobs are OnDelete children, so each runs once), and the
 * logical restore Job. Removing
 * {@code spec.backup} removes these children only: what is in the bucket stays.
 *
 * <p>A base backup Job runs Spilo's own backup script ({@code postgres_backup.sh}, the one Spilo's cron runs on
 * {@code BACKUP_SCHEDULE}) on the primary with {@code kubectl exec svc/<n>-rw}: the Service selects the leader, and
 * the script itself does nothing on a replica.
 */
public final class Backups {
  public static final String COMPONENT = "backup";
  public static final String FINAL_COMPONENT = "final-backup";

  /** The push: Spilo's backup script on the primary. */
  public static final String CONTAINER = "backup";

  /** Records when the Job started, before the push. */
  public static final String STARTED_CONTAINER = "started";

  /** Reads the store after the push: the Job succeeds only if this does. */
  public static final String VERIFY_CONTAINER = "verify";

  /** The final backup's first step on the primary: no commit after it. */
  public static final String FENCE_CONTAINER = "fence";

  /** The final backup's last step: the WAL up to the end of the backup is in the archive. */
  public static final String ARCHIVED_CONTAINER = "archived";

  /** How long the final backup waits for its last WAL segment in the store, each try. */
  public static final int ARCHIVE_WAIT_SECONDS = 600;

  /** Where the steps of one run share what they know (an emptyDir). */
  public static final String RUN_DIRECTORY = "/run/base-backup";

  /** The push's start, then the verification after it (store-common.sh first), as the containers run them. */
  public static final String STARTED_SCRIPT = ResourceTexts.load("scripts/base-backup-started.sh");

  public static final String VERIFY_SCRIPT =
      ResourceTexts.load("scripts/store-common.sh")
          + ResourceTexts.load("scripts/base-backup-verify.sh");
  public static final String FENCE_SCRIPT = ResourceTexts.load("scripts/final-backup-fence.sh");
  public static final String ARCHIVED_SCRIPT =
      ResourceTexts.load("scripts/store-common.sh")
          + ResourceTexts.load("scripts/final-backup-archived.sh");

  private Backups() {}

  /** The backups' children of a sync: the Jobs' names and the restore's start as {@code jobs} decided. */
  public static List<ObjectNode> children(
      String cluster, String namespace, ClusterSpec spec, List<String> members, BackupJobs jobs) {
    List<ObjectNode> children = new ArrayList<>();
    BackupSpec backups = spec.backups();
    backups
        .backup()
        .ifPresent(
            backup -> {
              children.addAll(rbac(cluster, namespace, members));
              children.addAll(StoreChecks.children(cluster, namespace, spec, backup));
              backup
                  .logical()
                  .ifPresent(
                      logical ->
                          children.add(
                              LogicalBackups.cronJob(cluster, namespace, spec, backup, logical)));
              for (BackupSpec.OnDemand entry : backup.onDemand()) {
                String name = jobs.onDemand().get(entry.name());
                children.add(
                    entry.method().equals("logical")
                        ? LogicalBackups.backupJob(
                            name, cluster, namespace, spec, backup, backup.logical().orElseThrow())
                        : baseBackupJob(
                            name, cluster, namespace, backup, spec.scheduling().jobs(), COMPONENT));
              }
            });
    backups
        .logicalRestore()
        .filter(restore -> jobs.restoreStarts())
        .ifPresent(
            restore -> children.add(LogicalBackups.restoreJob(cluster, namespace, spec, restore)));
    return children;
  }

  /**
   * The final backup Job of a deletion with {@code finalBackup: true}: a base backup as on demand, fenced and closed.
   * First the primary is fenced ({@code fence}: new transactions read-only, every client session ended), so no
   * commit comes after the backup; after the verified push, {@code archived} switches the WAL segment and waits until
   * the store holds it. The Job completes, and the deletion goes on, only when the archive has the last commit.
   */
  public static ObjectNode finalBackupJob(String cluster, String namespace, ClusterSpec spec) {
    return baseBackupJob(
        Names.finalBackupJob(cluster),
        cluster,
        namespace,
        spec.backups().backup().orElseThrow(),
        spec.scheduling().jobs(),
        FINAL_COMPONENT,
        Optional.of(spec.postgresVersion()));
  }

  /**
   * A base backup in three steps, each to its end before the next: {@code started} records the time, {@code backup}
   * pushes (Spilo's script, which exits 0 whatever WAL-G did: postgres_backup.sh:42 does not check wal-g's status),
   * and {@code verify} succeeds only if the store holds a complete base backup that started after {@code started}
   * ran. So the Job is Complete only for a backup the store shows. The two steps that read the store run in the
   * logical backup image (bash and the AWS CLI).
   */
  public static ObjectNode baseBackupJob(
      String name,
      String cluster,
      String namespace,
      BackupSpec.Backup backup,
      PodScheduling placement,
      String component) {
    return baseBackupJob(name, cluster, namespace, backup, placement, component, Optional.empty());
  }

  /** With {@code closing} (the cluster's PostgreSQL version), fenced before and closed after (the final backup). */
  private static ObjectNode baseBackupJob(
      String name,
      String cluster,
      String namespace,
      BackupSpec.Backup backup,
      PodScheduling placement,
      String component,
      Optional<Integer> closing) {
    ObjectNode job = Jobs.job(name, cluster, component, placement);
    job.withObjectProperty("spec").put("backoffLimit", 2);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("serviceAccountName", Names.backup(cluster));
    pod.putArray("volumes").addObject().put("name", "run").putObject("emptyDir");
    String tools =
        backup
            .logical()
            .map(BackupSpec.Logical::image)
            .orElse(BackupSpecReader.DEFAULT_LOGICAL_IMAGE);
    ObjectNode started = Jobs.initContainer(pod, STARTED_CONTAINER, tools);
    bash(started, STARTED_SCRIPT, "base-backup-started");
    started.putArray("env").addObject().put("name", "BACKUP_RUN").put("value", RUN_DIRECTORY);
    mountRun(started);
    closing.ifPresent(
        version -> {
          ObjectNode fence = Jobs.initContainer(pod, FENCE_CONTAINER, tools);
          bash(fence, FENCE_SCRIPT, "final-backup-fence");
          fence.set("env", primary(name, cluster, namespace, version));
        });
    ObjectNode push = Jobs.initContainer(pod, CONTAINER, backup.jobImage());
    ArrayNode command = push.putArray("command");
    for (String arg : baseBackupCommand(cluster, namespace)) {
      command.add(arg);
    }
    // kubectl alone talks to the API server: the steps in the tools image, with the store's keys,
    // get no token.
    ApiToken.onlyInto(pod, push);
    ObjectNode verify =
        closing.isPresent()
            ? Jobs.initContainer(pod, VERIFY_CONTAINER, tools)
            : Jobs.container(pod, VERIFY_CONTAINER, tools);
    bash(verify, VERIFY_SCRIPT, "base-backup-verify");
    ArrayNode env = verify.putArray("env");
    env.addObject().put("name", "BACKUP_RUN").put("value", RUN_DIRECTORY);
    // The AWS CLI keeps caches under $HOME; the pod's user may have none.
    env.addObject().put("name", "HOME").put("value", "/tmp");
    LogicalBackups.store(env, backup.s3());
    mountRun(verify);
    closing.ifPresent(
        version -> {
          ObjectNode archived = Jobs.container(pod, ARCHIVED_CONTAINER, tools);
          bash(archived, ARCHIVED_SCRIPT, "final-backup-archived");
          ArrayNode archivedEnv = primary(name, cluster, namespace, version);
          archivedEnv.addObject().put("name", "HOME").put("value", "/tmp");
          archivedEnv
              .addObject()
              .put("name", "ARCHIVE_WAIT_SECONDS")
              .put("value", String.valueOf(ARCHIVE_WAIT_SECONDS));
          LogicalBackups.store(archivedEnv, backup.s3());
          archived.set("env", archivedEnv);
        });
    return job;
  }

  /** The primary as the superuser, and the PostgreSQL version whose psql the image may have in its own directory. */
  private static ArrayNode primary(String job, String cluster, String namespace, int version) {
    ArrayNode env = Jobs.primaryConnection(cluster, namespace, job);
    env.addObject().put("name", "PGVERSION").put("value", String.valueOf(version));
    return env;
  }

  private static void bash(ObjectNode container, String script, String name) {
    container
        .putArray("command")
        .add("/bin/bash")
        .add("-c")
        .add(KubeletText.literal(script))
        .add(name);
  }

  private static void mountRun(ObjectNode container) {
    container
        .putArray("volumeMounts")
        .addObject()
        .put("name", "run")
        .put("mountPath", RUN_DIRECTORY);
  }

  /** kubectl only (the image needs no shell); the shell is Spilo's, in the database container. */
  public static List<String> baseBackupCommand(String cluster, String namespace) {
    return List.of(
        "kubectl",
        "exec",
        "--namespace",
        namespace,
        "svc/" + Names.primaryService(cluster),
        "--container",
        Spilo.CONTAINER,
        "--",
        "/bin/sh",
        "-c",
        "envdir " + Spilo.WAL_ENV_DIR + " /scripts/postgres_backup.sh " + Spilo.PGDATA);
  }

  /**
   * What {@code kubectl exec svc/<n>-rw} needs: read that Service, list the pods it selects (and watch, while none
   * is there yet; a list by label cannot be limited by name), then get and exec into the pod it found, one of the
   * cluster's own members by name ({@code Members}: every ordinal the StatefulSet may have, so also the primary on
   * an ordinal a scale-down removes).
   */
  public static List<ObjectNode> rbac(String cluster, String namespace, List<String> members) {
    String name = Names.backup(cluster);
    ObjectNode role = PatroniRbac.emptyRole(name, cluster, COMPONENT);
    List<String> pods = members;
    RoleRules.of(role)
        .named("", "services", List.of(Names.primaryService(cluster)), "get")
        .anyName("", "pods", "list", "watch")
        .named("", "pods", pods, "get")
        .named("", "pods/exec", pods, "create", "get");
    return List.of(
        PatroniRbac.serviceAccount(name, cluster, COMPONENT),
        role,
        PatroniRbac.roleBinding(name, cluster, namespace, COMPONENT));
  }
}
