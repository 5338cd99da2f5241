package dev.metahooks.controllers.postgres.base;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The fixed names of a cluster's children. None ends in {@code -config}, {@code -leader}, {@code -failover} or
 * {@code -sync}: those are the ConfigMaps Patroni keeps for its scope (the cluster's name), and they are not ours.
 *
 * <p>Names are unique per cluster and purpose in a namespace, whatever the clusters are called: a fixed purpose is
 * joined with a dash and ends in a word no other purpose ends in (or a hash or a version, after a word of its own),
 * and a part the user chose (a user, an on-demand backup) is joined with a dot, which no cluster name has.
 * NameCollisionPropertyTest renders clusters of random names side by side and finds no two of a kind alike.
 */
public final class Names {
  private Names() {}

  /** The name of an object: {@code metadata.name}, empty when it has none. */
  public static String of(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  public static String statefulSet(String cluster) {
    return cluster;
  }

  /** The database pod of {@code ordinal}, as the StatefulSet controller names it. */
  public static String member(String cluster, int ordinal) {
    return statefulSet(cluster) + "-" + ordinal;
  }

  public static String headlessService(String cluster) {
    return cluster + "-hl";
  }

  public static String primaryService(String cluster) {
    return cluster + "-rw";
  }

  public static String replicaService(String cluster) {
    return cluster + "-ro";
  }

  public static String superuserSecret(String cluster) {
    return cluster + "-superuser";
  }

  public static String replicationSecret(String cluster) {
    return cluster + "-replication";
  }

  /** Patroni's REST API credentials. */
  public static String restApiSecret(String cluster) {
    return cluster + "-restapi";
  }

  /**
   * An application user's Secret: {@code <n>.<user>}. Neither a cluster name nor a user name can contain a dot,
   * so the name says which cluster and which user it is for, and it cannot be another cluster's Secret (the
   * other Secrets' names have no dot).
   */
  public static String userSecret(String cluster, String user) {
    return cluster + "." + user;
  }

  /** What Patroni's ConfigMaps of the cluster (its scope) are called; not children, removed on deletion. */
  public static List<String> patroniConfigMaps(String cluster) {
    return List.of(
        cluster + "-config", cluster + "-leader", cluster + "-failover", cluster + "-sync");
  }

  /** The ServiceAccount, Role, RoleBinding and Job that remove Patroni's ConfigMaps once the pods are gone. */
  public static String cleanup(String cluster) {
    return cluster + "-cleanup";
  }

  /** The ServiceAccount, Role and RoleBinding of the resize Job. */
  public static String resize(String cluster) {
    return cluster + "-resize";
  }

  /** The resize Job that grows the data claims to {@code size}: a new size is a new Job. */
  public static String resizeJob(String cluster, String size) {
    return resize(cluster) + "-" + shortHash(size);
  }

  /** The ServiceAccount, Role and RoleBinding of the major upgrade Job. */
  public static String upgrade(String cluster) {
    return cluster + "-upgrade";
  }

  /** The Job that upgrades the cluster in place to PostgreSQL {@code version}: one per target version. */
  public static String upgradeJob(String cluster, int version) {
    return upgrade(cluster) + "-" + version;
  }

  /** The base backup Job taken before an upgrade to {@code version}, and verified, before the upgrade may start. */
  public static String upgradeBackupJob(String cluster, int version) {
    return upgrade(cluster) + "-backup-" + version;
  }

  /** The ServiceAccount, Role and RoleBinding Patroni runs with. */
  public static String patroni(String cluster) {
    return cluster + "-patroni";
  }

  public static String networkPolicy(String cluster) {
    return cluster;
  }

  public static String disruptionBudget(String cluster) {
    return cluster;
  }

  /**
   * The users Job's component label: what the plan looks for among the observed Jobs (a logical restore waits for
   * the roles) and what the Job carries.
   */
  public static final String USERS_COMPONENT = "users";

  public static String usersJob(String cluster, String hash) {
    return cluster + "-" + USERS_COMPONENT + "-" + hash;
  }

  /** The pooler's Deployment, Service, ConfigMap and Secret. */
  public static String pooler(String cluster) {
    return cluster + "-pooler";
  }

  /** A dot, which no cluster name has: {@code <n>-pooler} would be the budget of a cluster called so. */
  public static String poolerDisruptionBudget(String cluster) {
    return cluster + ".pooler";
  }

  /** A dot, as the budget's: the cluster {@code <n>-pooler} has the NetworkPolicy {@code <n>-pooler}. */
  public static String poolerNetworkPolicy(String cluster) {
    return cluster + ".pooler";
  }

  public static String poolerSecret(String cluster) {
    return pooler(cluster);
  }

  public static String exporterSecret(String cluster) {
    return cluster + "-exporter";
  }

  public static String metricsService(String cluster) {
    return cluster + "-metrics";
  }

  /** In-cluster DNS name of a Service in the cluster's namespace. */
  public static String serviceHost(String service, String namespace) {
    return service + "." + namespace + ".svc";
  }

  /** The logical backup CronJob (CronJob names have at most 52 characters: 40 + 8). */
  public static String logicalCronJob(String cluster) {
    return cluster + "-logical";
  }

  public static String logicalRestoreJob(String cluster) {
    return cluster + "-logical-restore";
  }

  /**
   * An on-demand backup's Job: {@code <n>.backup-<name>}. The entry's name is the user's, so it is joined with a
   * dot, which no cluster name and no entry name has: everything before the dot is the cluster, and no other Job's
   * name has a dot. Joined with a dash, the entry {@code final-backup} of cluster {@code orders} was the final
   * backup Job of cluster {@code orders-backup}.
   */
  public static String backupJob(String cluster, String name) {
    return cluster + ".backup-" + name;
  }

  /** An on-demand backup's Job as named before: kept while observed, never created. */
  public static String earlierBackupJob(String cluster, String name) {
    return cluster + "-backup-" + name;
  }

  public static String finalBackupJob(String cluster) {
    return cluster + "-final-backup";
  }

  /** The store check's CronJob, ServiceAccount, Role and RoleBinding (40 + 12: within a CronJob's 52). */
  public static String storeCheck(String cluster) {
    return cluster + "-store-check";
  }

  /** The ConfigMap the store check writes its report into. */
  public static String backupHealth(String cluster) {
    return cluster + "-backup-health";
  }

  /** The ServiceAccount, Role and RoleBinding the base backup Jobs run with. */
  public static String backup(String cluster) {
    return cluster + "-backup";
  }

  /** The switchover Job of a rollout's revision and leader: each leader of a rollout gets its own. */
  public static String switchoverJob(String cluster, String revision, String leader) {
    return cluster + "-switchover-" + shortHash(revision + "/" + leader);
  }

  /** The ServiceAccount, Role and RoleBinding of the rollout's restart Jobs. */
  public static String restart(String cluster) {
    return cluster + "-restart";
  }

  /** The restart Job of {@code pod} to the StatefulSet's update {@code revision}: each pod of a rollout its own. */
  public static String restartJob(String cluster, String revision, String pod) {
    return restart(cluster) + "-" + shortHash(revision + "/" + pod);
  }

  /** Ten hex digits of the text's SHA-256: a Job name's suffix that changes exactly when its input does. */
  public static String shortHash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }
}
