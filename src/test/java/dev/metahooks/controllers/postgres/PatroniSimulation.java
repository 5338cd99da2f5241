package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Patroni's part in a scenario, as the API server sees it: in every cluster (pods with the same namespace and
 * {@code cluster-name} scope label) the running pods get the role label {@code spilo-role}: the leader keeps
 * {@code master} while it lives; without a leader, a ready replica takes over (failover), or else the lowest
 * ordinal bootstraps the cluster; every other running pod is {@code replica}. Pods that are not running yet
 * get no label.
 */
final class PatroniSimulation {
  private PatroniSimulation() {}

  static void step(Cluster cluster) {
    Map<String, List<ObjectNode>> scopes = new TreeMap<>();
    for (ObjectNode pod : cluster.list("v1", "Pod")) {
      JsonNode labels = pod.path("metadata").path("labels");
      if (Labels.APP.equals(labels.path(Labels.NAME).asText()) && labels.has(Labels.CLUSTER_NAME)
          && !pod.path("metadata").has("deletionTimestamp") && running(pod)) {
        String scope = pod.path("metadata").path("namespace").asText() + "/" + labels.path(Labels.CLUSTER_NAME).asText();
        scopes.computeIfAbsent(scope, s -> new ArrayList<>()).add(pod);
      }
    }
    scopes.values().forEach(members -> label(cluster, members));
  }

  private static void label(Cluster cluster, List<ObjectNode> members) {
    members.sort(Comparator.comparing(PatroniSimulation::ordinal).thenComparing(PatroniSimulation::name));
    Optional<ObjectNode> leader = members.stream().filter(pod -> Labels.LEADER.equals(role(pod))).findFirst()
        .or(() -> members.stream().filter(pod -> Labels.REPLICA.equals(role(pod)) && ObservedCluster.ready(pod))
            .findFirst())
        .or(() -> members.stream().findFirst());
    for (ObjectNode pod : members) {
      String wanted = leader.map(l -> name(l).equals(name(pod))).orElse(false) ? Labels.LEADER : Labels.REPLICA;
      if (!wanted.equals(role(pod))) {
        ((ObjectNode) pod.get("metadata")).withObjectProperty("labels").put(Labels.ROLE, wanted);
        cluster.update(pod);
      }
    }
  }

  private static boolean running(JsonNode pod) {
    return "Running".equals(pod.path("status").path("phase").asText());
  }

  private static String role(JsonNode pod) {
    return pod.path("metadata").path("labels").path(Labels.ROLE).asText("");
  }

  private static String name(JsonNode pod) {
    return pod.path("metadata").path("name").asText();
  }

  private static int ordinal(JsonNode pod) {
    String name = name(pod);
    String suffix = name.substring(name.lastIndexOf('-') + 1);
    return suffix.matches("[0-9]{1,9}") ? Integer.parseInt(suffix) : Integer.MAX_VALUE;
  }
}
