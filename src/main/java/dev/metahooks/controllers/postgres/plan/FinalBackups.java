package dev.metahooks.controllers.postgres.plan;

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
 * completed Job stays a child until the end, so that it is never run twice). A failed Job keeps everything and
 * says why. Without a StatefulSet there is nothing left to back up.
 */
public final class FinalBackups {
  /** Where the final backup of a deletion stands. */
  public enum Stage {
    /** No final backup asked for, or nothing left to back up. */
    NOT_ASKED,
    /** Its Job has completed: the deletion goes on, the Job kept. */
    DONE,
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
        case NOT_ASKED, DONE -> Optional.empty();
        case INVALID_SPEC -> Optional.of(Mode.Blocker.FINAL_BACKUP_INVALID_SPEC);
        case START, RUNNING -> Optional.of(Mode.Blocker.FINAL_BACKUP_RUNNING);
        case FAILED -> Optional.of(Mode.Blocker.FINAL_BACKUP_FAILED);
      };
    }
  }

  private FinalBackups() {}

  public static Stage stage(SpecReader.Result read, ObservedCluster observed) {
    Optional<ObjectNode> job = observedJob(observed);
    if (job.isPresent() && JobConditions.succeeded(job.get())) {
      return Stage.DONE;
    }
    boolean wanted = read.spec().backups().backup().map(BackupSpec.Backup::finalBackup).orElse(false);
    if (!wanted || (observed.statefulSet().isEmpty() && job.isEmpty())) {
      return Stage.NOT_ASKED;
    }
    if (!read.valid()) {
      return Stage.INVALID_SPEC;
    }
    return job.map(j -> JobConditions.failed(j) ? Stage.FAILED : Stage.RUNNING).orElse(Stage.START);
  }

  /** The observed final backup Job, if any. */
  public static Optional<ObjectNode> observedJob(ObservedCluster observed) {
    return observed.job(Names.finalBackupJob(observed.name()));
  }

  public static String blockedMessage(Mode.Blocker blocker, ObservedCluster observed) {
    String job = Names.finalBackupJob(observed.name());
    return switch (blocker) {
      case FINAL_BACKUP_RUNNING -> "the final backup Job " + job + " runs; the cluster is deleted once it has completed";
      case FINAL_BACKUP_FAILED -> "the final backup Job " + job + " failed (its pod's log says why); the cluster and its volumes "
          + "are kept: delete the Job to try again, or set spec.backup.finalBackup to false to delete without it";
      case FINAL_BACKUP_INVALID_SPEC -> "spec.backup.finalBackup is true but the spec is invalid (see SpecValid): fix it so that the "
          + "final backup can run, or set finalBackup to false";
      default -> "deletion is blocked";
    };
  }
}
