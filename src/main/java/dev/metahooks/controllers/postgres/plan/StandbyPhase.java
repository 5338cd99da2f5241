package dev.metahooks.controllers.postgres.plan;

/**
 * Where a standby cluster stands. {@code FOLLOWING}: {@code spec.standby} is set, the cluster replays its source's
 * WAL. {@code PROMOTING}: {@code spec.standby} was removed and the parameters Job that ends standby mode has not
 * completed. {@code PROMOTED}: that Job completed. {@code NONE}: the cluster never was a standby.
 */
public enum StandbyPhase {
  FOLLOWING,
  PROMOTING,
  PROMOTED,
  NONE;

  /** Nothing of this cluster's own is written yet: no users Job, no backups. */
  public boolean readOnly() {
    return this == FOLLOWING || this == PROMOTING;
  }

  /** The parameters Job sends {@code standby_cluster: null}. */
  public boolean promotes() {
    return this == PROMOTING || this == PROMOTED;
  }
}
