package dev.metahooks.controllers.postgres.spec;

/**
 * {@code spec.storage.wal}: a volume of its own for each member's {@code pg_wal}, so that a burst of WAL (a
 * replica or the archive falling behind) cannot fill the data volume, and WAL can sit on faster storage.
 *
 * @param storageClassName null for the cluster's default class
 */
public record WalVolume(String size, String storageClassName) {
  public boolean hasStorageClass() {
    return storageClassName != null;
  }
}
