package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * Labels of children and pods. Database pods carry {@code cluster-name} (Patroni's scope label) and are
 * selected by name and instance; no other pod we create carries both, so Services and the StatefulSet only
 * ever select database pods.
 */
final class Labels {
  static final String NAME = "app.kubernetes.io/name";
  static final String INSTANCE = "app.kubernetes.io/instance";
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String COMPONENT = "app.kubernetes.io/component";
  /** Patroni's scope label (Spilo {@code KUBERNETES_SCOPE_LABEL}). */
  static final String CLUSTER_NAME = "cluster-name";
  /** Patroni's role label (Spilo {@code KUBERNETES_ROLE_LABEL}); Spilo marks the leader {@code master}. */
  static final String ROLE = "spilo-role";
  static final String LEADER = "master";
  static final String REPLICA = "replica";
  static final String APP = "postgresql";
  static final String MANAGER = "metahooks";

  private Labels() {}

  /** The labels every child carries. */
  static ObjectNode child(String cluster, String component) {
    return Json.object()
        .put(NAME, APP)
        .put(INSTANCE, cluster)
        .put(MANAGED_BY, MANAGER)
        .put(COMPONENT, component)
        .put(CLUSTER_NAME, cluster);
  }

  /** The labels of database pods (the StatefulSet's pod template). */
  static ObjectNode pod(String cluster) {
    return child(cluster, "database");
  }

  /** Selects the database pods of one cluster; fixed for the cluster's life (a StatefulSet selector is immutable). */
  static ObjectNode podSelector(String cluster) {
    return Json.object().put(INSTANCE, cluster).put(NAME, APP);
  }

  /** {@link #podSelector} as a label-selector string, for the scale subresource. */
  static String podSelectorText(String cluster) {
    return INSTANCE + "=" + cluster + "," + NAME + "=" + APP;
  }
}
