package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The NetworkPolicy {@code <n>} ({@code spec.networkPolicy.enabled}, off by default): ingress to the database pods
 * is limited to PostgreSQL (5432) from the selected clients, the cluster's pooler pods, its own database pods
 * (replication) and its Jobs; Patroni's REST API (8008) from its own database pods and Jobs; the exporter port
 * (9187) from the selected monitoring namespace. Egress is not restricted: Patroni talks to the Kubernetes API
 * and backups to object storage, both outside anything a pod selector can name.
 */
final class NetworkPolicies {
  static final int EXPORTER_PORT = 9187;
  /** The label Kubernetes' Job controller puts on every pod of a Job; database pods never carry it. */
  static final String JOB_NAME_LABEL = "job-name";
  static final String POOLER_COMPONENT = "pooler";
  static final Set<String> SELECTOR_OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");
  static final int MAX_CLIENTS = 16;

  /**
   * {@code spec.networkPolicy}.
   *
   * @param clients NetworkPolicy peers ({@code podSelector} and/or {@code namespaceSelector}) that may reach 5432
   * @param monitoring the peer that may reach the exporter port; absent: nobody
   */
  record Spec(boolean enabled, List<ObjectNode> clients, Optional<ObjectNode> monitoring) {
    static final Spec OFF = new Spec(false, List.of(), Optional.empty());
  }

  private NetworkPolicies() {}

  static Optional<ObjectNode> build(String cluster, ClusterSpec spec) {
    Spec policy = spec.networkPolicy();
    if (!policy.enabled()) {
      return Optional.empty();
    }
    ObjectNode object = Json.object().put("apiVersion", "networking.k8s.io/v1").put("kind", "NetworkPolicy");
    object.putObject("metadata").put("name", Names.networkPolicy(cluster)).set("labels",
        Labels.child(cluster, "network-policy"));
    ObjectNode policySpec = object.putObject("spec");
    policySpec.putObject("podSelector").set("matchLabels", Labels.podSelector(cluster));
    policySpec.putArray("policyTypes").add("Ingress");
    ArrayNode ingress = policySpec.putArray("ingress");

    ObjectNode postgres = ingress.addObject();
    port(postgres, StatefulSets.POSTGRES_PORT);
    ArrayNode postgresFrom = postgres.putArray("from");
    ownPods(cluster, postgresFrom);
    postgresFrom.addObject().putObject("podSelector").putObject("matchLabels")
        .put(Labels.INSTANCE, cluster).put(Labels.COMPONENT, POOLER_COMPONENT);
    policy.clients().forEach(client -> postgresFrom.add(client.deepCopy()));

    ObjectNode patroni = ingress.addObject();
    port(patroni, StatefulSets.PATRONI_PORT);
    ownPods(cluster, patroni.putArray("from"));

    policy.monitoring().ifPresent(monitoring -> {
      ObjectNode metrics = ingress.addObject();
      port(metrics, EXPORTER_PORT);
      metrics.putArray("from").add(monitoring.deepCopy());
    });
    return Optional.of(object);
  }

  /** The cluster's database pods and the pods of its Jobs (in this namespace: a peer without namespaceSelector). */
  private static void ownPods(String cluster, ArrayNode from) {
    from.addObject().putObject("podSelector").set("matchLabels", Labels.podSelector(cluster));
    ObjectNode jobs = from.addObject().putObject("podSelector");
    jobs.putObject("matchLabels").put(Labels.INSTANCE, cluster).put(Labels.MANAGED_BY, Labels.MANAGER);
    jobs.putArray("matchExpressions").addObject().put("key", JOB_NAME_LABEL).put("operator", "Exists");
  }

  private static void port(ObjectNode rule, int port) {
    rule.putArray("ports").addObject().put("protocol", "TCP").put("port", port);
  }

  // --- reading the spec's peers ---

  /**
   * A NetworkPolicy peer of the spec: {@code podSelector} and/or {@code namespaceSelector}, each a label selector
   * (ipBlock is not offered: pod addresses change, and a CIDR would admit whatever gets them next).
   */
  static Optional<ObjectNode> peer(JsonNode node, String path, FieldProblems problems) {
    if (node == null || !node.isObject()) {
      problems.add(path, "must be an object with podSelector and/or namespaceSelector");
      return Optional.empty();
    }
    ObjectNode peer = Json.object();
    int before = problems.size();
    node.properties().forEach(field -> {
      String fieldPath = path + "." + field.getKey();
      if (field.getKey().equals("podSelector") || field.getKey().equals("namespaceSelector")) {
        selector(field.getValue(), fieldPath, problems);
        peer.set(field.getKey(), field.getValue().deepCopy());
      } else {
        problems.add(fieldPath, "is not a field here (podSelector, namespaceSelector)");
      }
    });
    if (peer.isEmpty() && problems.size() == before) {
      problems.add(path, "needs podSelector and/or namespaceSelector");
    }
    return problems.size() == before ? Optional.of(peer) : Optional.empty();
  }

  /** A label selector as Kubernetes checks it: string labels, known operators, values only with In/NotIn. */
  private static void selector(JsonNode node, String path, FieldProblems problems) {
    if (!node.isObject()) {
      problems.add(path, "must be a label selector (matchLabels, matchExpressions)");
      return;
    }
    node.properties().forEach(field -> {
      String fieldPath = path + "." + field.getKey();
      switch (field.getKey()) {
        case "matchLabels" -> {
          if (!field.getValue().isObject()) {
            problems.add(fieldPath, "must be a map of label names to values");
          } else {
            field.getValue().properties().forEach(label -> {
              if (!label.getValue().isTextual() || label.getKey().isEmpty()) {
                problems.add(fieldPath + "." + label.getKey(), "must be a string");
              }
            });
          }
        }
        case "matchExpressions" -> expressions(field.getValue(), fieldPath, problems);
        default -> problems.add(fieldPath, "is not a field of a label selector");
      }
    });
  }

  private static void expressions(JsonNode node, String path, FieldProblems problems) {
    if (!node.isArray()) {
      problems.add(path, "must be a list");
      return;
    }
    for (int i = 0; i < node.size(); i++) {
      JsonNode expression = node.get(i);
      String itemPath = path + "[" + i + "]";
      String operator = expression.path("operator").asText("");
      JsonNode values = expression.path("values");
      if (!expression.path("key").isTextual() || expression.path("key").asText().isEmpty()) {
        problems.add(itemPath + ".key", "is required");
      } else if (!SELECTOR_OPERATORS.contains(operator)) {
        problems.add(itemPath + ".operator", "must be one of In, NotIn, Exists, DoesNotExist");
      } else if (operator.equals("In") || operator.equals("NotIn")) {
        if (!values.isArray() || values.isEmpty() || !allText(values)) {
          problems.add(itemPath + ".values", "must be a non-empty list of strings for " + operator);
        }
      } else if (!values.isMissingNode() && !values.isNull() && !values.isEmpty()) {
        problems.add(itemPath + ".values", "must be empty for " + operator);
      }
    }
  }

  private static boolean allText(JsonNode values) {
    for (JsonNode value : values) {
      if (!value.isTextual()) {
        return false;
      }
    }
    return true;
  }

  /** {@code spec.networkPolicy.clients}: a list of peers. */
  static List<ObjectNode> clients(JsonNode node, String path, FieldProblems problems) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      problems.add(path, "must be a list");
      return List.of();
    }
    if (node.size() > MAX_CLIENTS) {
      problems.add(path, "must have at most " + MAX_CLIENTS + " entries");
    }
    List<ObjectNode> clients = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      peer(node.get(i), path + "[" + i + "]", problems).ifPresent(clients::add);
    }
    return List.copyOf(clients);
  }
}
