package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Deletion with {@code spec.backup.finalBackup: true}: while the cluster still runs, every child is kept as it is
 * and Job {@code <n>-final-backup} takes a base backup; only once it has completed does the deletion go on (the
 * completed Job stays a child until the end, so that it is never run twice). A failed Job keeps everything and
 * says why. Without a StatefulSet there is nothing left to back up.
 */
final class FinalBackups {
  /**
   * What the final backup asks of this finalize call.
   *
   * @param blocker why the deletion waits, if it does
   * @param children the children to answer while it waits, or to keep while the deletion goes on
   */
  record Step(Optional<Mode.Blocker> blocker, List<ObjectNode> children) {
    static final Step NONE = new Step(Optional.empty(), List.of());

    static Step goOn(List<ObjectNode> kept) {
      return new Step(Optional.empty(), kept);
    }

    static Step waitFor(Mode.Blocker blocker, List<ObjectNode> children) {
      return new Step(Optional.of(blocker), children);
    }
  }

  private FinalBackups() {}

  static Step step(String namespace, SpecReader.Result read, ObservedCluster observed) {
    Optional<ObjectNode> job = Backups.observedFinalJob(observed);
    if (job.isPresent() && Backups.succeeded(job.get())) {
      return Step.goOn(List.of(Preserved.child(job.get())));
    }
    Optional<BackupSpec.Backup> backup = read.spec().backups().backup();
    boolean wanted = backup.map(BackupSpec.Backup::finalBackup).orElse(false);
    if (!wanted || (observed.statefulSet().isEmpty() && job.isEmpty())) {
      return Step.NONE;
    }
    List<ObjectNode> children = new ArrayList<>(Preserved.all(observed.children()));
    if (!read.valid()) {
      return Step.waitFor(Mode.Blocker.FINAL_BACKUP_INVALID_SPEC, children);
    }
    if (job.isPresent()) {
      return Step.waitFor(Backups.failed(job.get()) ? Mode.Blocker.FINAL_BACKUP_FAILED
          : Mode.Blocker.FINAL_BACKUP_RUNNING, children);
    }
    Set<String> present = observed.children().stream().map(FinalBackups::key).collect(Collectors.toSet());
    List<ObjectNode> needed = new ArrayList<>(Backups.rbac(observed.name(), namespace, read.spec()));
    needed.add(Backups.finalBackupJob(observed.name(), namespace, backup.get()));
    needed.stream().filter(child -> !present.contains(key(child))).forEach(children::add);
    return Step.waitFor(Mode.Blocker.FINAL_BACKUP_RUNNING, ObservedCluster.inTypeOrder(children));
  }

  static String blockedMessage(Mode.Blocker blocker, ObservedCluster observed) {
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

  private static String key(ObjectNode child) {
    return child.path("kind").asText() + "/" + ObservedCluster.nameOf(child);
  }
}
