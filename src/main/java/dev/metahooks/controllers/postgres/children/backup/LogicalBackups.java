package dev.metahooks.controllers.postgres.children.backup;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.KubeletText;

/**
 * Logical backups: {@code pg_dump} of every database, streamed with the AWS CLI to
 * {@code s3://<bucket>/<prefix>/logical/<UTC stamp>/<database>.dump} (custom format), closed by a {@code COMPLETE}
 * manifest (one line per database: name and SHA-256 of its dump) that is written last, so a dump that failed
 * half-way is never taken for a backup. Scheduled by CronJob {@code <n>-logical}, on demand by a Job of the same
 * pod, and restored into another cluster by Job {@code <n>-logical-restore} ({@code spec.bootstrap.logical}).
 *
 * <p>Both scripts first list the prefix, so a wrong credential or bucket fails before anything is dumped or
 * uploaded; they run as rendered in LogicalBackupScriptsIT against a real PostgreSQL, s3rver and the AWS CLI.
 * The image needs bash, pg_dump/pg_restore/psql and the AWS CLI.
 */
public final class LogicalBackups {
  public static final String CONTAINER = "logical-backup";
  public static final String COMPONENT = "logical-backup";
  public static final String RESTORE_COMPONENT = "logical-restore";

  private LogicalBackups() {}

  /** CronJob {@code <n>-logical}: one run at a time, in UTC; three finished Jobs of each outcome kept. */
  public static ObjectNode cronJob(
      String cluster,
      String namespace,
      ClusterSpec spec,
      BackupSpec.Backup backup,
      BackupSpec.Logical logical) {
    ObjectNode job =
        backupJob(Names.logicalCronJob(cluster), cluster, namespace, spec, backup, logical);
    return CronJobs.of(job, logical.schedule(), 3600, 3, 3);
  }

  /** A logical backup Job (on demand, or the CronJob's template). */
  public static ObjectNode backupJob(
      String name,
      String cluster,
      String namespace,
      ClusterSpec spec,
      BackupSpec.Backup backup,
      BackupSpec.Logical logical) {
    ArrayNode env = connection(cluster, namespace, spec);
    store(env, backup.s3());
    env.addObject().put("name", "RETAIN").put("value", String.valueOf(logical.count()));
    env.addObject()
        .put("name", "WITH_POSTGRES")
        .put("value", String.valueOf(logical.postgresDatabase()));
    // The store's server-side encryption of what the backup uploads, as WAL-G's (the AWS CLI's
    // --sse).
    // An empty value is written as none: the API server does not store "" (omitempty), and
    // Metacontroller would
    // otherwise set it again on every sync. The script reads an unset variable as empty.
    optionalValue(env, "S3_SSE", backup.encryption().serverSide());
    optionalValue(env, "S3_SSE_KMS_ID", backup.encryption().kmsKeyId());
    return job(name, cluster, COMPONENT, spec, logical.image(), BACKUP_SCRIPT, env, SETTINGS_SQL);
  }

  /** Job {@code <n>-logical-restore}: the source's newest complete logical backup (or the one named) into this cluster. */
  public static ObjectNode restoreJob(
      String cluster, String namespace, ClusterSpec spec, BackupSpec.LogicalRestore restore) {
    ArrayNode env = connection(cluster, namespace, spec);
    store(env, restore.s3());
    restore
        .backup()
        .ifPresent(stamp -> env.addObject().put("name", "RESTORE_BACKUP").put("value", stamp));
    env.addObject()
        .put("name", "RESTORE_POSTGRES")
        .put("value", String.valueOf(restore.postgresDatabase()));
    return job(
        Names.logicalRestoreJob(cluster),
        cluster,
        RESTORE_COMPONENT,
        spec,
        restore.image(),
        RESTORE_SCRIPT,
        env);
  }

  /**
   * One bash script ({@code $0} names it in its messages, {@code args} are {@code $1}...) in the given image, no
   * ServiceAccount token.
   */
  private static ObjectNode job(
      String name,
      String cluster,
      String component,
      ClusterSpec spec,
      String image,
      String script,
      ArrayNode env,
      String... args) {
    ObjectNode job = Jobs.job(name, cluster, component, spec.scheduling().jobs());
    job.withObjectProperty("spec").put("backoffLimit", 2);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    ArrayNode command =
        container
            .putArray("command")
            .add("/bin/bash")
            .add("-c")
            .add(KubeletText.literal(script))
            .add(component);
    for (String arg : args) {
      command.add(KubeletText.literal(arg));
    }
    container.set("env", env);
    return job;
  }

  /** The primary as the superuser, and the client of the server's major version where the image has several. */
  private static ArrayNode connection(String cluster, String namespace, ClusterSpec spec) {
    ArrayNode env = Jobs.primaryConnection(cluster, namespace, cluster + "-logical-backup");
    env.addObject().put("name", "PGVERSION").put("value", String.valueOf(spec.postgresVersion()));
    // The AWS CLI keeps caches under $HOME; the pod's user may have none.
    env.addObject().put("name", "HOME").put("value", "/tmp");
    return env;
  }

  /** The store, as the AWS CLI takes it; credentials only from the user's Secret. */
  static void store(ArrayNode env, BackupSpec.S3 s3) {
    env.addObject().put("name", "S3_BUCKET").put("value", s3.bucket());
    env.addObject().put("name", "S3_PREFIX").put("value", s3.prefix());
    env.addObject().put("name", "S3_ENDPOINT").put("value", s3.endpoint());
    env.addObject()
        .put("name", "S3_FORCE_PATH_STYLE")
        .put("value", String.valueOf(s3.forcePathStyle()));
    env.addObject()
        .put("name", "AWS_DEFAULT_REGION")
        .put("value", s3.region().isEmpty() ? "us-east-1" : s3.region());
    s3.credentials()
        .ifPresent(
            credentials -> {
              env.addObject()
                  .put("name", "AWS_ACCESS_KEY_ID")
                  .putObject("valueFrom")
                  .putObject("secretKeyRef")
                  .put("name", credentials.secretName())
                  .put("key", credentials.accessKeyIdKey());
              env.addObject()
                  .put("name", "AWS_SECRET_ACCESS_KEY")
                  .putObject("valueFrom")
                  .putObject("secretKeyRef")
                  .put("name", credentials.secretName())
                  .put("key", credentials.secretAccessKeyKey());
            });
  }

  /**
   * What both scripts share (store-common.sh, then logical-common.sh): a private work directory (two runs never
   * share a file), the AWS CLI's addressing, the client version, the store check, waiting for the primary.
   */
  private static final String COMMON =
      ResourceTexts.load("scripts/store-common.sh")
          + ResourceTexts.load("scripts/logical-common.sh");

  /**
   * Dumps each database that accepts connections (not the templates, not {@code postgres}) into the new stamp's
   * folder, checksums on the way, then writes the manifest; on a failure removes the stamp's folder. Afterwards
   * keeps the newest {@code RETAIN} complete backups and deletes every older folder.
   */
  public static final String BACKUP_SCRIPT =
      COMMON + ResourceTexts.load("scripts/logical-backup.sh");

  /** The databases' settings as statements ({@code $1} of the backup script). */
  public static final String SETTINGS_SQL = ResourceTexts.load("sql/database-settings.sql");

  /**
   * Restores each database of the chosen backup: checks its SHA-256 against the manifest, creates the database
   * if it does not exist, refuses one that already has tables (a restore never overwrites data), and runs
   * pg_restore, stopping at the first error. Owners and grants are restored as dumped: the roles must exist
   * (list them in {@code spec.users}; the hook starts the restore once the users Job has completed).
   */
  public static final String RESTORE_SCRIPT =
      COMMON + ResourceTexts.load("scripts/logical-restore.sh");

  private static void optionalValue(ArrayNode env, String name, String value) {
    ObjectNode variable = env.addObject().put("name", name);
    if (!value.isEmpty()) {
      variable.put("value", value);
    }
  }
}
