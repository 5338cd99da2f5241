package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * Logical backups: {@code pg_dump} of every database, streamed with the AWS CLI to
 * {@code s3://<bucket>/<prefix>/logical/<UTC stamp>/<database>.dump} (custom format), closed by a {@code COMPLETE}
 * manifest (one line per database: name and SHA-256 of its dump) that is written last, so a dump that failed
 * half-way is never taken for a backup. Scheduled by CronJob {@code <n>-logical}, on demand by a Job of the same
 * pod, and restored into another cluster by Job {@code <n>-logical-restore} ({@code spec.bootstrap.logical}).
 *
 * <p>Both scripts first list the prefix, so a wrong credential or bucket fails before anything is dumped or
 * uploaded; they run as rendered in LogicalBackupScriptsTest against a real PostgreSQL, s3rver and the AWS CLI.
 * The image needs bash, pg_dump/pg_restore/psql and the AWS CLI.
 */
final class LogicalBackups {
  static final String CONTAINER = "logical-backup";
  static final String COMPONENT = "logical-backup";
  static final String RESTORE_COMPONENT = "logical-restore";

  private LogicalBackups() {}

  /** CronJob {@code <n>-logical}: one run at a time, in UTC; three finished Jobs of each outcome kept. */
  static ObjectNode cronJob(String cluster, String namespace, ClusterSpec spec, BackupSpec.Backup backup,
      BackupSpec.Logical logical) {
    ObjectNode job = backupJob(Names.logicalCronJob(cluster), cluster, namespace, spec, backup, logical);
    ObjectNode cron = Json.object().put("apiVersion", "batch/v1").put("kind", "CronJob");
    cron.set("metadata", job.path("metadata").deepCopy());
    ObjectNode cronSpec = cron.putObject("spec")
        .put("schedule", logical.schedule())
        .put("timeZone", "Etc/UTC")
        .put("concurrencyPolicy", "Forbid")
        .put("startingDeadlineSeconds", 3600)
        .put("successfulJobsHistoryLimit", 3)
        .put("failedJobsHistoryLimit", 3);
    ObjectNode template = cronSpec.putObject("jobTemplate");
    template.putObject("metadata").set("labels", job.path("metadata").path("labels").deepCopy());
    template.set("spec", job.path("spec"));
    return cron;
  }

  /** A logical backup Job (on demand, or the CronJob's template). */
  static ObjectNode backupJob(String name, String cluster, String namespace, ClusterSpec spec, BackupSpec.Backup backup,
      BackupSpec.Logical logical) {
    ArrayNode env = connection(cluster, namespace, spec);
    store(env, backup.s3());
    env.addObject().put("name", "RETAIN").put("value", String.valueOf(logical.count()));
    return job(name, cluster, COMPONENT, logical.image(), BACKUP_SCRIPT, env);
  }

  /** Job {@code <n>-logical-restore}: the source's newest complete logical backup (or the one named) into this cluster. */
  static ObjectNode restoreJob(String cluster, String namespace, ClusterSpec spec, BackupSpec.LogicalRestore restore) {
    ArrayNode env = connection(cluster, namespace, spec);
    store(env, restore.s3());
    restore.backup().ifPresent(stamp -> env.addObject().put("name", "RESTORE_BACKUP").put("value", stamp));
    return job(Names.logicalRestoreJob(cluster), cluster, RESTORE_COMPONENT, restore.image(), RESTORE_SCRIPT, env);
  }

  /** One bash script ({@code $0} names it in its messages) in the given image, no ServiceAccount token. */
  private static ObjectNode job(String name, String cluster, String component, String image, String script,
      ArrayNode env) {
    ObjectNode job = Jobs.job(name, cluster, component);
    job.withObjectProperty("spec").put("backoffLimit", 2);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    container.putArray("command").add("/bin/bash").add("-c").add(script).add(component);
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
  private static void store(ArrayNode env, BackupSpec.S3 s3) {
    env.addObject().put("name", "S3_BUCKET").put("value", s3.bucket());
    env.addObject().put("name", "S3_PREFIX").put("value", s3.prefix());
    env.addObject().put("name", "S3_ENDPOINT").put("value", s3.endpoint());
    env.addObject().put("name", "S3_FORCE_PATH_STYLE").put("value", String.valueOf(s3.forcePathStyle()));
    env.addObject().put("name", "AWS_DEFAULT_REGION").put("value", s3.region().isEmpty() ? "us-east-1" : s3.region());
    s3.credentials().ifPresent(credentials -> {
      env.addObject().put("name", "AWS_ACCESS_KEY_ID").putObject("valueFrom").putObject("secretKeyRef")
          .put("name", credentials.secretName()).put("key", credentials.accessKeyIdKey());
      env.addObject().put("name", "AWS_SECRET_ACCESS_KEY").putObject("valueFrom").putObject("secretKeyRef")
          .put("name", credentials.secretName()).put("key", credentials.secretAccessKeyKey());
    });
  }

  /**
   * What both scripts share: a private work directory (two runs never share a file), the client version, the AWS
   * CLI's addressing, the store check, waiting for the primary.
   */
  static final String COMMON = """
      set -euo pipefail
      work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
      if [ -x "/usr/lib/postgresql/$PGVERSION/bin/pg_dump" ]; then PATH="/usr/lib/postgresql/$PGVERSION/bin:$PATH"; fi
      if [ "$S3_FORCE_PATH_STYLE" = true ]; then
        printf '[default]\\ns3 =\\n  addressing_style = path\\n' > "$work/aws-config"
        export AWS_CONFIG_FILE="$work/aws-config"
      fi
      s3() { aws ${S3_ENDPOINT:+--endpoint-url "$S3_ENDPOINT"} "$@"; }
      url="s3://$S3_BUCKET/$S3_PREFIX/logical"
      if ! s3 s3api list-objects-v2 --bucket "$S3_BUCKET" --prefix "$S3_PREFIX/" --max-items 1 > "$work/s3-check" 2>&1; then
        echo "$0: cannot list s3://$S3_BUCKET/$S3_PREFIX/ (check the bucket, the endpoint and the credentials Secret): $(cat "$work/s3-check")" >&2
        exit 1
      fi
      for attempt in $(seq 1 60); do pg_isready -q && break; sleep 5; done
      complete() { { s3 s3 ls --recursive "$url/" 2>/dev/null || true; } | awk '{ print $4 }' \
        | { grep -oE '/[0-9]{8}T[0-9]{6}Z/COMPLETE$' || true; } | cut -d/ -f2 | sort; }
      """;

  /**
   * Dumps each database that accepts connections (not the templates, not {@code postgres}) into the new stamp's
   * folder, checksums on the way, then writes the manifest; on a failure removes the stamp's folder. Afterwards
   * keeps the newest {@code RETAIN} complete backups and deletes every older folder.
   */
  static final String BACKUP_SCRIPT = COMMON + """
      stamp=$(date -u +%Y%m%dT%H%M%SZ)
      dest="$url/$stamp"
      trap 's3 s3 rm --recursive --quiet "$dest/" || true; echo "$0: backup $stamp failed; nothing of it is kept" >&2' ERR
      databases=$(psql -X -At -v ON_ERROR_STOP=1 -c "SELECT datname FROM pg_catalog.pg_database WHERE datallowconn AND NOT datistemplate AND datname <> 'postgres' ORDER BY 1")
      : > "$work/manifest"
      for db in $databases; do
        rm -f "$work/dump-fifo" && mkfifo "$work/dump-fifo"
        sha256sum < "$work/dump-fifo" > "$work/sum" &
        pg_dump -Fc -d "$db" | tee "$work/dump-fifo" | s3 s3 cp --quiet - "$dest/$db.dump"
        wait $!
        echo "$db $(cut -d' ' -f1 "$work/sum")" >> "$work/manifest"
        echo "dumped $db to $dest/$db.dump"
      done
      s3 s3 cp --quiet "$work/manifest" "$dest/COMPLETE"
      trap - ERR
      echo "logical backup $stamp complete: $(wc -l < "$work/manifest") databases"
      keep=$(complete | tail -n "$RETAIN" | head -n 1)
      for old in $(s3 s3 ls "$url/" | awk '$1 == "PRE" { print $2 }' | tr -d / | sort); do
        if [[ "$old" < "$keep" ]]; then s3 s3 rm --recursive --quiet "$url/$old/"; echo "removed backup $old (retention $RETAIN)"; fi
      done
      """;

  /**
   * Restores each database of the chosen backup: checks its SHA-256 against the manifest, creates the database
   * if it does not exist, refuses one that already has tables (a restore never overwrites data), and runs
   * pg_restore, stopping at the first error. Owners and grants are restored as dumped: the roles must exist
   * (list them in {@code spec.users}; the hook starts the restore once the users Job has completed).
   */
  static final String RESTORE_SCRIPT = COMMON + """
      stamp=${RESTORE_BACKUP:-$(complete | tail -n 1)}
      if [ -z "$stamp" ] || ! s3 s3 cp --quiet "$url/$stamp/COMPLETE" "$work/manifest" 2>/dev/null; then
        echo "$0: no complete logical backup${RESTORE_BACKUP:+ $RESTORE_BACKUP} under $url/" >&2
        exit 1
      fi
      while read -r db sum; do
        s3 s3 cp --quiet "$url/$stamp/$db.dump" "$work/$db.dump"
        if [ "$(sha256sum "$work/$db.dump" | cut -d' ' -f1)" != "$sum" ]; then
          echo "$0: $db.dump of $stamp does not match its checksum" >&2; exit 1
        fi
        exists=$(psql -X -At -v ON_ERROR_STOP=1 -v db="$db" <<< "SELECT count(*) FROM pg_catalog.pg_database WHERE datname = :'db'")
        if [ "$exists" = 0 ]; then
          psql -X -q -v ON_ERROR_STOP=1 -v db="$db" <<< 'CREATE DATABASE :"db"'
        fi
        tables=$(psql -X -At -v ON_ERROR_STOP=1 -d "$db" -c "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'")
        if [ "$tables" != 0 ]; then
          echo "$0: database $db already has $tables tables; a restore does not overwrite data" >&2; exit 1
        fi
        pg_restore --exit-on-error -d "$db" "$work/$db.dump"
        rm -f "$work/$db.dump"
        echo "restored $db from $stamp"
      done < "$work/manifest"
      echo "logical restore of $stamp complete"
      """;
}
