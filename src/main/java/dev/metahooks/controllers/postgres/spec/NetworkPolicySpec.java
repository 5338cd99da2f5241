package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code spec.networkPolicy}, and how its peers are read.
 *
 * @param clients NetworkPolicy peers ({@code podSelector} and/or {@code namespaceSelector}) that may reach 5432
 * @param monitoring the peer that may reach the exporter port; absent: nobody
 */
public record NetworkPolicySpec(
    boolean enabled, List<ObjectNode> clients, Optional<ObjectNode> monitoring) {
  public static final NetworkPolicySpec OFF =
      new NetworkPolicySpec(false, List.of(), Optional.empty());
  public static final Set<String> SELECTOR_OPERATORS =
      Set.of("In", "NotIn", "Exists", "DoesNotExist");
  public static final int MAX_CLIENTS = 16;

  /**
   * A NetworkPolicy peer of the spec: {@code podSelector} and/or {@code namespaceSelector}, each a label selector
   * (ipBlock is not offered: pod addresses change, and a CIDR would admit whatever gets them next).
   */
  public static Optional<ObjectNode> peer(JsonNode node, String path, FieldProblems problems) {
    if (node == null || !node.isObject()) {
      problems.add(path, "must be an object with podSelector and/or namespaceSelector");
      return Optional.empty();
    }
    ObjectNode peer = Json.object();
    int before = problems.size();
    node.properties()
        .forEach(
            field -> {
              String fieldPath = path + "." + field.getKey();
              if (field.getKey().equals("podSelector")
                  || field.getKey().equals("namespaceSelector")) {
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
    node.properties()
        .forEach(
            field -> {
              String fieldPath = path + "." + field.getKey();
              switch (field.getKey()) {
                case "matchLabels" -> {
                  if (!field.getValue().isObject()) {
                    problems.add(fieldPath, "must be a map of label names to values");
                  } else {
                    field
                        .getValue()
                        .properties()
                        .forEach(
                            label -> {
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
  public static List<ObjectNode> clients(JsonNode node, String path, FieldProblems problems) {
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
