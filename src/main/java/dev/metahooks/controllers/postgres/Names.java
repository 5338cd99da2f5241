package dev.metahooks.controllers.postgres;

import java.util.List;

/**
 * The fixed names of a cluster's children. None ends in {@code -config}, {@code -leader}, {@code -failover} or
 * {@code -sync}: those are the ConfigMaps Patroni keeps for its scope (the cluster's name), and they are not ours.
 */
final class Names {
  private Names() {}

  static String statefulSet(String cluster) {
    return cluster;
  }

  static String headlessService(String cluster) {
    return cluster + "-hl";
  }

  static String primaryService(String cluster) {
    return cluster + "-rw";
  }

  static String replicaService(String cluster) {
    return cluster + "-ro";
  }

  static String superuserSecret(String cluster) {
    return cluster + "-superuser";
  }

  static String replicationSecret(String cluster) {
    return cluster + "-replication";
  }

  /** Patroni's REST API credentials. */
  static String restApiSecret(String cluster) {
    return cluster + "-restapi";
  }

  /**
   * An application user's Secret: {@code <n>.<user>}. Neither a cluster name nor a user name can contain a dot,
   * so the name says which cluster and which user it is for, and it cannot be another cluster's Secret (the
   * other Secrets' names have no dot).
   */
  static String userSecret(String cluster, String user) {
    return cluster + "." + user;
  }

  /** What Patroni's ConfigMaps of the cluster (its scope) are called; not children, removed on deletion. */
  static List<String> patroniConfigMaps(String cluster) {
    return List.of(cluster + "-config", cluster + "-leader", cluster + "-failover", cluster + "-sync");
  }

  /** The ServiceAccount, Role, RoleBinding and Job that remove Patroni's ConfigMaps once the pods are gone. */
  static String cleanup(String cluster) {
    return cluster + "-cleanup";
  }

  /** The ServiceAccount, Role and RoleBinding Patroni runs with. */
  static String patroni(String cluster) {
    return cluster + "-patroni";
  }

  static String networkPolicy(String cluster) {
    return cluster;
  }

  static String disruptionBudget(String cluster) {
    return cluster;
  }

  static String usersJob(String cluster, String hash) {
    return cluster + "-users-" + hash;
  }

  /** In-cluster DNS name of a Service in the cluster's namespace. */
  static String serviceHost(String service, String namespace) {
    return service + "." + namespace + ".svc";
  }
}
