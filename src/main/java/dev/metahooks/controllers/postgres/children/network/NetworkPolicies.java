package dev.metahooks.controllers.postgres.children.network;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.access.PoolerAccess;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.NetworkPolicySpec;
import java.util.List;
import java.util.Optional;

/**
 * The NetworkPolicy {@code <n>} ({@code spec.networkPolicy.enabled}, off by default): ingress to the database pods
 * is limited to PostgreSQL (5432) from the selected clients, the cluster's pooler pods, its own database pods
 * (replication) and its Jobs; Patroni's REST API (8008) from its own database pods and Jobs; the exporter port
 * (9187) from the selected monitoring namespace. With a pooler, the NetworkPolicy {@code <n>.pooler} selects the
 * pooler's pods and admits to PgBouncer only the selected clients (the pooler has no exporter): else every pod of
 * every namespace would reach PgBouncer, and through it, with a password, the primary. Egress is not restricted:
 * Patroni talks to the Kubernetes API and backups to object storage, both outside anything a pod selector can name.
 */
public final class NetworkPolicies {
  public static final int EXPORTER_PORT = 9187;

  /** The label Kubernetes' Job controller puts on every pod of a Job; database pods never carry it. */
  public static final String JOB_NAME_LABEL = "job-name";

  public static final String POOLER_COMPONENT = "pooler";

  private NetworkPolicies() {}

  public static Optional<ObjectNode> build(String cluster, ClusterSpec spec) {
    return build(cluster, spec, List.of());
  }

  /**
   * The policy, admitting to PostgreSQL as well the database pods of {@code liveClones}: the clusters of the
   * namespace that clone this one live (their pods take a base backup from the primary with the replication user).
   */
  public static Optional<ObjectNode> build(
      String cluster, ClusterSpec spec, List<String> liveClones) {
    NetworkPolicySpec policy = spec.networkPolicy();
    if (!policy.enabled()) {
      return Optional.empty();
    }
    ObjectNode object =
        ingressPolicy(Names.networkPolicy(cluster), cluster, Labels.podSelector(cluster));
    ArrayNode ingress = (ArrayNode) object.at("/spec/ingress");

    ObjectNode postgres = ingress.addObject();
    port(postgres, Spilo.POSTGRES_PORT);
    ArrayNode postgresFrom = postgres.putArray("from");
    ownPods(cluster, postgresFrom);
    postgresFrom
        .addObject()
        .putObject("podSelector")
        .putObject("matchLabels")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.COMPONENT, POOLER_COMPONENT);
    policy.clients().forEach(client -> postgresFrom.add(client.deepCopy()));
    liveClones.forEach(
        clone ->
            postgresFrom
                .addObject()
                .putObject("podSelector")
                .set("matchLabels", Labels.podSelector(clone)));

    ObjectNode patroni = ingress.addObject();
    port(patroni, Spilo.PATRONI_PORT);
    ownPods(cluster, patroni.putArray("from"));

    policy
        .monitoring()
        .ifPresent(
            monitoring -> {
              ObjectNode metrics = ingress.addObject();
              port(metrics, EXPORTER_PORT);
              metrics.putArray("from").add(monitoring.deepCopy());
            });
    return Optional.of(object);
  }

  /**
   * The policy over the pooler's pods, when the network policy and the pooler are on: PgBouncer's port from
   * {@code networkPolicy.clients} alone; without clients, from nobody.
   */
  public static Optional<ObjectNode> pooler(String cluster, ClusterSpec spec) {
    NetworkPolicySpec policy = spec.networkPolicy();
    if (!policy.enabled() || !spec.pooler().enabled()) {
      return Optional.empty();
    }
    ObjectNode object =
        ingressPolicy(Names.poolerNetworkPolicy(cluster), cluster, Labels.poolerSelector(cluster));
    ArrayNode ingress = (ArrayNode) object.at("/spec/ingress");
    if (!policy.clients().isEmpty()) {
      ObjectNode clients = ingress.addObject();
      port(clients, PoolerAccess.PORT);
      ArrayNode from = clients.putArray("from");
      policy.clients().forEach(client -> from.add(client.deepCopy()));
    }
    return Optional.of(object);
  }

  /** A policy {@code name} of the cluster over the pods {@code selected}, restricting ingress, with no rule yet. */
  private static ObjectNode ingressPolicy(String name, String cluster, ObjectNode selected) {
    ObjectNode object =
        Json.object().put("apiVersion", "networking.k8s.io/v1").put("kind", "NetworkPolicy");
    object
        .putObject("metadata")
        .put("name", name)
        .set("labels", Labels.child(cluster, "network-policy"));
    ObjectNode policySpec = object.putObject("spec");
    policySpec.putObject("podSelector").set("matchLabels", selected);
    policySpec.putArray("policyTypes").add("Ingress");
    policySpec.putArray("ingress");
    return object;
  }

  /** The cluster's database pods and the pods of its Jobs (in this namespace: a peer without namespaceSelector). */
  private static void ownPods(String cluster, ArrayNode from) {
    from.addObject().putObject("podSelector").set("matchLabels", Labels.podSelector(cluster));
    ObjectNode jobs = from.addObject().putObject("podSelector");
    jobs.putObject("matchLabels")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.MANAGED_BY, Labels.MANAGER);
    jobs.putArray("matchExpressions")
        .addObject()
        .put("key", JOB_NAME_LABEL)
        .put("operator", "Exists");
  }

  private static void port(ObjectNode rule, int port) {
    rule.putArray("ports").addObject().put("protocol", "TCP").put("port", port);
  }
}
