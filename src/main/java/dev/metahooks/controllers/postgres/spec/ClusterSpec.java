package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The day-1 spec of a PostgresCluster, with every default applied as the CRD applies it. {@link SpecReader}
 * builds it from the parent and lists what is wrong with it; a spec with problems is never rendered.
 *
 * @param resources the container's ResourceRequirements ({@code requests}/{@code limits}, values as strings)
 * @param parameters PostgreSQL settings, sorted by name so that the rendered configuration is stable
 */
public record ClusterSpec(
    int postgresVersion,
    String image,
    int instances,
    boolean paused,
    ObjectNode resources,
    Storage storage,
    Map<String, String> parameters,
    List<User> users,
    List<Database> databases,
    Availability availability,
    ServiceOptions services,
    Updates updates,
    boolean deletionProtection,
    Monitoring monitoring,
    Pooler pooler,
    BackupSpec backups,
    NetworkPolicySpec networkPolicy,
    Optional<TlsSpec> tls,
    Patroni patroni,
    PodScheduling.Scheduling scheduling,
    Optional<WalVolume> walVolume,
    Optional<StandbySpec> standby) {

  /** The Spilo image of the built-in catalog: PostgreSQL 13 to 17 with Patroni (zalando/spilo release 4.0-p3). */
  public static final String DEFAULT_IMAGE = "ghcr.io/zalando/spilo-17:4.0-p3";

  public static final int DEFAULT_VERSION = 17;

  /** postgres_exporter's image (monitoring.image). */
  public static final String DEFAULT_EXPORTER_IMAGE =
      "quay.io/prometheuscommunity/postgres-exporter:v0.15.0";

  /** CloudNativePG's PgBouncer image (pooler.image): PgBouncer only, started with the configuration file as its argument. */
  public static final String DEFAULT_POOLER_IMAGE = "ghcr.io/cloudnative-pg/pgbouncer:1.23.0";

  /** {@code storage}: the data volume of each pod and what happens to it on scale-down and deletion. */
  public record Storage(
      String size, String storageClassName, String whenDeleted, String whenScaled) {
    public boolean hasStorageClass() {
      return storageClassName != null;
    }
  }

  /**
   * An application role; each database listed is created and owned by it. Options: CREATEDB, CREATEROLE.
   * {@code connect}: databases owned by other users of the cluster that this one may connect to as well.
   */
  public record User(
      String name, List<String> databases, List<String> options, List<String> connect) {}

  /**
   * A declared database ({@code spec.databases}): created if missing, owned by {@code owner} (a user of the
   * cluster), with the extensions and schemas listed (never dropped when removed from the list).
   * {@code reclaimPolicy}: {@code Retain} keeps the database when its entry is removed, {@code Delete} drops it.
   */
  public record Database(
      String name,
      String owner,
      List<String> extensions,
      List<String> schemas,
      String reclaimPolicy) {}

  /** {@code availability}: how pods spread and whether a PodDisruptionBudget guards them. */
  public record Availability(
      String podAntiAffinity, String topologyKey, boolean podDisruptionBudget) {}

  /** {@code services}: the primary Service type and whether a read-only Service over replicas exists. */
  public record ServiceOptions(String primaryType, boolean replicasEnabled) {}

  /**
   * {@code updates}: how a new pod template reaches the pods. {@code switchover} (the default): the hook steps the
   * StatefulSet's partition, replicas first, a planned switchover, the old primary last; {@code restart}: the
   * StatefulSet's own rolling update, the primary restarted when its ordinal comes up.
   */
  /**
   * @param maxLagBytes how far (bytes of WAL) a replica may be behind the leader and still count as caught up
   *     before a rollout's next step or a switchover to it
   */
  public record Updates(
      String method, List<MaintenanceWindows.Window> maintenanceWindows, long maxLagBytes) {
    /** One WAL segment: a replica that streams is rarely further behind between two of Patroni's cycles. */
    public static final long DEFAULT_MAX_LAG_BYTES = 16L << 20;

    public static final long MAX_MAX_LAG_BYTES = 1L << 30;

    public boolean switchover() {
      return "switchover".equals(method);
    }
  }

  /** {@code monitoring}: a postgres_exporter sidecar in every database pod (see {@code Exporters}). */
  public record Monitoring(boolean enabled, String image) {}

  /**
   * {@code pooler}: PgBouncer in front of the primary (see {@code Poolers}); on when {@code spec.pooler} is given,
   * unless {@code enabled: false}.
   */
  public record Pooler(
      boolean enabled,
      int instances,
      String mode,
      int defaultPoolSize,
      int maxClientConnections,
      String image) {}

  /**
   * {@code patroni}: Patroni's availability settings, in its dynamic configuration. {@code failsafeMode}: a primary
   * that can still reach every member keeps running while the Kubernetes API is unreachable. {@code synchronous}:
   * {@code async} (commits wait for no standby), {@code sync} (commits wait for {@code nodeCount} synchronous
   * standbys while there are any: Patroni's {@code synchronous_mode}) or {@code strict} (commits wait even when none
   * is there: {@code synchronous_mode_strict}).
   */
  public record Patroni(boolean failsafeMode, String synchronousMode, int synchronousNodeCount) {
    public boolean synchronous() {
      return !"async".equals(synchronousMode);
    }
  }

  /**
   * The same spec without this cluster's own backups ({@code spec.backup}): what a standby renders until it is
   * promoted (it writes nothing, and archives nothing, of its own).
   */
  public ClusterSpec withoutOwnBackups() {
    BackupSpec none =
        new BackupSpec(Optional.empty(), backups.cloneFrom(), backups.logicalRestore());
    return new ClusterSpec(
        postgresVersion,
        image,
        instances,
        paused,
        resources,
        storage,
        parameters,
        users,
        databases,
        availability,
        services,
        updates,
        deletionProtection,
        monitoring,
        pooler,
        none,
        networkPolicy,
        tls,
        patroni,
        scheduling,
        walVolume,
        standby);
  }

  /** The same spec at another major version: what the pods render while an upgrade to this spec's waits. */
  public ClusterSpec withPostgresVersion(int version) {
    return new ClusterSpec(
        version,
        image,
        instances,
        paused,
        resources,
        storage,
        parameters,
        users,
        databases,
        availability,
        services,
        updates,
        deletionProtection,
        monitoring,
        pooler,
        backups,
        networkPolicy,
        tls,
        patroni,
        scheduling,
        walVolume,
        standby);
  }

  /** Whether a read-only Service over the replicas is wanted. */
  public boolean wantsReplicaService() {
    return instances > 1 && services.replicasEnabled();
  }

  /** Whether a PodDisruptionBudget is wanted. */
  public boolean wantsDisruptionBudget() {
    return instances > 1 && availability.podDisruptionBudget();
  }
}
