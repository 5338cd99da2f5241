package dev.metahooks.controllers.postgres.base;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * Labels of children and pods. Database pods carry {@code cluster-name} (Patroni's scope label) and are
 * selected by name and instance; no other pod we create carries both, so Services and the StatefulSet only
 * ever select database pods.
 */
public final class Labels {
  public static final String NAME = "app.kubernetes.io/name";
  public static final String INSTANCE = "app.kubernetes.io/instance";
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String COMPONENT = "app.kubernetes.io/component";

  /** Patroni's scope label (Spilo {@code KUBERNETES_SCOPE_LABEL}). */
  public static final String CLUSTER_NAME = "cluster-name";

  /** Patroni's role label (Spilo {@code KUBERNETES_ROLE_LABEL}); Spilo marks the leader {@code master}. */
  public static final String ROLE = "spilo-role";

  public static final String LEADER = "master";
  public static final String REPLICA = "replica";
  public static final String APP = "postgresql";
  public static final String MANAGER = "metahooks";

  private Labels() {}

  /** The labels every child carries. */
  public static ObjectNode child(String cluster, String component) {
    return Json.object()
        .put(NAME, APP)
        .put(INSTANCE, cluster)
        .put(MANAGED_BY, MANAGER)
        .put(COMPONENT, component)
        .put(CLUSTER_NAME, cluster);
  }

  /** The labels of database pods (the StatefulSet's pod template). */
  public static ObjectNode pod(String cluster) {
    return child(cluster, "database");
  }

  /** Selects the database pods of one cluster; fixed for the cluster's life (a StatefulSet selector is immutable). */
  public static ObjectNode podSelector(String cluster) {
    return Json.object().put(INSTANCE, cluster).put(NAME, APP);
  }

  /** Selects the pooler's pods of one cluster (its Deployment, Service, budget and network policy). */
  public static ObjectNode poolerSelector(String cluster) {
    return Json.object().put(NAME, "pgbouncer").put(INSTANCE, cluster);
  }

  /** {@link #podSelector} as a label-selector string, for the scale subresource. */
  public static String podSelectorText(String cluster) {
    return INSTANCE + "=" + cluster + "," + NAME + "=" + APP;
  }
}
