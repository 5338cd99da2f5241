package dev.metahooks.controllers.postgres;

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

  static String userSecret(String cluster, String user) {
    return cluster + "-app-" + user;
  }

  /** The ServiceAccount, Role and RoleBinding Patroni runs with. */
  static String patroni(String cluster) {
    return cluster + "-patroni";
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
