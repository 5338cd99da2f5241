package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.kube.FieldProblem;
import java.util.List;

/** How one hook call treats the cluster, with the reason when it renders nothing new. */
public sealed interface Mode {
  /** A valid, unpaused spec: every child is rendered from it. */
  record Rendered() implements Mode {}

  /** {@code spec.paused}: the children are frozen as they are. */
  record Paused() implements Mode {}

  /** The spec has problems: the children are frozen until it is valid. */
  record Invalid(List<FieldProblem> problems) implements Mode {}

  /** The parent is being deleted and nothing holds it: the children go, then Patroni's ConfigMaps. */
  record Deleting() implements Mode {}

  /** The parent is being deleted, and something holds the deletion (the children are kept). */
  record DeletionBlocked(Blocker blocker) implements Mode {}

  /** What holds a deletion; {@link #reason()} is the {@code DeletionBlocked} condition's reason. */
  enum Blocker {
    DELETION_PROTECTION("DeletionProtection"),
    PAUSED("Paused"),
    FINAL_BACKUP_RUNNING("FinalBackupRunning"),
    FINAL_BACKUP_FAILED("FinalBackupFailed"),
    FINAL_BACKUP_INVALID_SPEC("FinalBackupInvalidSpec");

    private final String reason;

    Blocker(String reason) {
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  default boolean rendered() {
    return this instanceof Rendered;
  }
}
