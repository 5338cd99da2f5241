package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import java.time.Instant;

/**
 * Store check reports as scripts/store-check.sh writes them (StoreCheckScriptIT shows the script writes exactly
 * these keys), put into a world's ConfigMap {@code <n>-backup-health} as the check's PATCH does.
 */
public final class StoreCheckReports {
  private StoreCheckReports() {}

  /** A primary archiving, a store with two complete base backups and the last archived WAL. */
  public static ObjectNode healthy(Instant checkedAt) {
    return Json.object()
        .put("format", "1")
        .put("checkedAt", checkedAt.toString())
        .put("database", "ok")
        .put("databaseError", "")
        .put("archiveMode", "on")
        .put("archivedCount", "41")
        .put("lastArchivedWal", "000000010000000000000029")
        .put("lastArchivedTime", checkedAt.minusSeconds(120).toString())
        .put("failedCount", "0")
        .put("lastFailedWal", "")
        .put("lastFailedTime", "")
        .put("store", "ok")
        .put("storeError", "")
        .put("baseBackups", "2")
        .put("lastBackupName", "base_000000010000000000000028")
        .put("lastBackupStart", checkedAt.minusSeconds(3600).toString())
        .put("lastBackupEnd", checkedAt.minusSeconds(3540).toString())
        .put("firstRecoverabilityPoint", checkedAt.minusSeconds(90000).toString())
        .put("walSegments", "41")
        .put("newestWal", "000000010000000000000029")
        .put("lastArchivedInStore", "yes");
  }

  /** Sets the data of the world's report ConfigMap (which the hook must have rendered). */
  public static void write(ObservedRequests world, ObjectNode data) {
    ObjectNode configMap = world.children.get("ConfigMap/" + Names.backupHealth(world.name));
    if (configMap == null) {
      throw new AssertionError("the hook rendered no ConfigMap " + Names.backupHealth(world.name));
    }
    configMap.set("data", data);
  }
}
