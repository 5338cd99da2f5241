package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Live requests carry a related group per customize rule, filled from the objects given, as Metacontroller does. */
class RelatedObjectsTest {
  private static final JsonNode PARENT =
      object("metahooks.dev/v1alpha1", "PostgresCluster", "shop", "orders", "x");
  private static final List<JsonNode> OBJECTS =
      List.of(
          object("v1", "Pod", "shop", "orders-0", "orders"),
              object("v1", "Pod", "shop", "other-0", "other"),
          object("v1", "Pod", "dev", "orders-0", "orders"),
              object("v1", "Secret", "shop", "orders-tls", "none"));

  @Test
  void everyRuleIsAGroupEvenEmptyAndSelectsByLabelsOrNamesInItsNamespace() {
    ArrayNode rules = JsonTrees.MAPPER.createArrayNode();
    rules
        .addObject()
        .put("apiVersion", "v1")
        .put("resource", "pods")
        .put("namespace", "shop")
        .putObject("labelSelector")
        .putObject("matchLabels")
        .put("cluster", "orders");
    rules
        .addObject()
        .put("apiVersion", "v1")
        .put("resource", "secrets")
        .put("namespace", "shop")
        .putArray("names")
        .add("orders-tls");
    rules
        .addObject()
        .put("apiVersion", "v1")
        .put("resource", "configmaps")
        .put("namespace", "shop")
        .putObject("labelSelector");
    ObjectNode v2 =
        RelatedObjects.of(rules, PARENT, OBJECTS, new ChildKinds(OBJECTS), true, "test");
    assertThat(v2.toString())
        .isEqualTo(
            "{\"Pod.v1\":{\"shop/orders-0\":"
                + OBJECTS.get(0)
                + "},"
                + "\"Secret.v1\":{\"shop/orders-tls\":"
                + OBJECTS.get(3)
                + "},\"ConfigMap.v1\":{}}");
    ObjectNode v1 =
        RelatedObjects.of(rules, PARENT, OBJECTS, new ChildKinds(OBJECTS), false, "test");
    assertThat(v1.path("Pod.v1").has("orders-0"))
        .as("v1 keys by name in the parent's namespace")
        .isTrue();
  }

  @Test
  void aSelectorTheDiffCannotEvaluateIsBadInput() {
    ArrayNode rules = JsonTrees.MAPPER.createArrayNode();
    rules
        .addObject()
        .put("apiVersion", "v1")
        .put("resource", "pods")
        .putObject("labelSelector")
        .putArray("matchExpressions")
        .addObject()
        .put("key", "cluster")
        .put("operator", "Exists");
    assertThatThrownBy(
            () -> RelatedObjects.of(rules, PARENT, OBJECTS, new ChildKinds(OBJECTS), true, "test"))
        .isInstanceOf(Cases.BadInput.class)
        .hasMessageContaining("matchExpressions");
  }

  private static ObjectNode object(
      String apiVersion, String kind, String namespace, String name, String cluster) {
    ObjectNode object = Json.object().put("apiVersion", apiVersion).put("kind", kind);
    object
        .putObject("metadata")
        .put("namespace", namespace)
        .put("name", name)
        .putObject("labels")
        .put("cluster", cluster);
    return object;
  }
}
