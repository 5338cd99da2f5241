package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The backup Jobs a sync asks for, beyond what the spec names alone.
 *
 * @param onDemand the Job of each on-demand entry, by entry name ({@link #onDemandJob})
 * @param restoreStarts the logical restore Job is asked for
 */
public record BackupJobs(Map<String, String> onDemand, boolean restoreStarts) {

  public static BackupJobs of(String cluster, ClusterSpec spec, ObservedCluster observed) {
    Map<String, String> onDemand = new LinkedHashMap<>();
    spec.backups()
        .backup()
        .ifPresent(
            backup -> {
              for (BackupSpec.OnDemand entry : backup.onDemand()) {
                onDemand.put(entry.name(), onDemandJob(cluster, entry.name(), observed));
              }
            });
    return new BackupJobs(
        Map.copyOf(onDemand),
        spec.backups().logicalRestore().isPresent() && restoreMayStart(cluster, spec, observed));
  }

  /**
   * The Job of on-demand entry {@code entry}: {@link Names#backupJob}, or the Job of the earlier name while it is
   * observed (it ran once already; renamed, the backup would run again).
   */
  public static String onDemandJob(String cluster, String entry, ObservedCluster observed) {
    String earlier = Names.earlierBackupJob(cluster, entry);
    return observed.job(earlier).isPresent() ? earlier : Names.backupJob(cluster, entry);
  }

  /**
   * The restore Job is asked for once it has been (it stays), or once the primary is ready and the users Job (whose
   * roles own the restored objects) has completed.
   */
  private static boolean restoreMayStart(
      String cluster, ClusterSpec spec, ObservedCluster observed) {
    if (observed.job(Names.logicalRestoreJob(cluster)).isPresent()) {
      return true;
    }
    boolean primaryReady =
        observed.livePods().stream()
            .anyMatch(p -> ObservedCluster.leader(p) && ObservedCluster.ready(p));
    boolean usersApplied =
        spec.users().isEmpty()
            || observed.jobsOf(Names.USERS_COMPONENT).stream().anyMatch(JobConditions::succeeded);
    return primaryReady && usersApplied;
  }
}
