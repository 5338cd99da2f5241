package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import java.util.Optional;

/**
 * Deletion with {@code spec.backup.finalBackup: true}: while the cluster still runs, every child is kept as it is
 * and Job {@code <n>-final-backup} takes a base backup; only once it has completed does the deletion go on (the
 * completed Job stays a child until the end, so that it is never run twice). The Job completes only when the store
 * shows a complete base backup that started after the Job did (its {@code verify} step), and the Job is created
 * only once the deletion was asked for, so a completed Job is a verified backup newer than the deletion request.
 * A failed Job keeps everything and says why. Without a StatefulSet there is nothing left to back up.
 *
 * <p>The one way to delete without it is deliberate: annotation {@value #SKIP_ANNOTATION} on the cluster whose
 * value is the cluster's own uid (a value copied from another cluster, or from an earlier incarnation of this
 * name, does nothing). The status says the deletion went on without a final backup.
 */
public final class FinalBackups {
  /** The annotation that lets a deletion go on without its final backup; its value must be the cluster's uid. */
  public static final String SKIP_ANNOTATION = "metahooks.dev/delete-without-final-backup";

  /** Where the final backup of a deletion stands. */
  public enum Stage {
    /** No final backup asked for, or nothing left to back up. */
    NOT_ASKED,
    /** Its Job has completed: the deletion goes on, the Job kept. */
    DONE,
    /** Skipped on purpose ({@link #SKIP_ANNOTATION} equals the cluster's uid): the deletion goes on without it. */
    SKIPPED,
    /** Asked for, but the spec is invalid: nothing can run. */
    INVALID_SPEC,
    /** Its Job is to be created. */
    START,
    /** Its Job runs. */
    RUNNING,
    /** Its Job failed. */
    FAILED;

    /** What holds the deletion at this stage, if anything. */
    public Optional<Mode.Blocker> blocker() {
      return switch (this) {
        case NOT_ASKED, DONE, SKIPPED -> Optional.empty();
        case INVALID_SPEC -> Optional.of(Mode.Blocker.FINAL_BACKUP_INVALID_SPEC);
        case START, RUNNING -> Optional.of(Mode.Blocker.FINAL_BACKUP_RUNNING);
        case FAILED -> Optional.of(Mode.Blocker.FINAL_BACKUP_FAILED);
      };
    }
  }

  private FinalBackups() {}

  /** {@code parent}: the cluster as sent, for its uid and {@link #SKIP_ANNOTATION}. */
  public static Stage stage(SpecReader.Result read, ObservedCluster observed, JsonNode parent) {
    Optional<ObjectNode> job = observedJob(observed);
    if (job.isPresent() && JobConditions.succeeded(job.get())) {
      return Stage.DONE;
    }
    boolean wanted =
        read.spec().backups().backup().map(BackupSpec.Backup::finalBackup).orElse(false);
    if (wanted && skipAsked(parent)) {
      return Stage.SKIPPED;
    }
    if (!wanted || (observed.statefulSet().isEmpty() && job.isEmpty())) {
      return Stage.NOT_ASKED;
    }
    if (!read.valid()) {
      return Stage.INVALID_SPEC;
    }
    return job.map(j -> JobConditions.failed(j) ? Stage.FAILED : Stage.RUNNING).orElse(Stage.START);
  }

  /** Whether {@link #SKIP_ANNOTATION} is set to the cluster's uid. */
  public static boolean skipAsked(JsonNode parent) {
    String uid = parent.path("metadata").path("uid").asText("");
    return !uid.isEmpty() && uid.equals(skipAnnotation(parent).orElse(null));
  }

  private static Optional<String> skipAnnotation(JsonNode parent) {
    JsonNode value = parent.path("metadata").path("annotations").path(SKIP_ANNOTATION);
    return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  /** The observed final backup Job, if any. */
  public static Optional<ObjectNode> observedJob(ObservedCluster observed) {
    return observed.job(Names.finalBackupJob(observed.name()));
  }

  public static String blockedMessage(
      Mode.Blocker blocker, ObservedCluster observed, JsonNode parent) {
    String job = Names.finalBackupJob(observed.name());
    String wrongSkip =
        skipAnnotation(parent)
            .filter(value -> !skipAsked(parent))
            .map(
                value ->
                    "; annotation "
                        + SKIP_ANNOTATION
                        + " is set, but not to this cluster's uid "
                        + parent.path("metadata").path("uid").asText()
                        + ", so it does nothing")
            .orElse("");
    return switch (blocker) {
      case FINAL_BACKUP_RUNNING ->
          "the final backup Job "
              + job
              + " runs; the cluster is deleted once it has completed"
              + " and its verify step has found the backup in the store"
              + wrongSkip;
      case FINAL_BACKUP_FAILED ->
          "the final backup Job "
              + job
              + " failed: the store shows no complete base backup "
              + "taken after the deletion was asked for (its pod's logs, push step and verify step, say why); the cluster "
              + "and its volumes are kept: fix the store and delete the Job to try again, or annotate the cluster "
              + SKIP_ANNOTATION
              + "=<its metadata.uid> to delete it without a final backup"
              + wrongSkip;
      case FINAL_BACKUP_INVALID_SPEC ->
          "spec.backup.finalBackup is true but the spec is invalid (see SpecValid): fix it so that the "
              + "final backup can run, or set finalBackup to false";
      default -> "deletion is blocked";
    };
  }
}
