package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A live request's related groups, as Metacontroller fills them from the customize hook's rules. */
class RelatedGroupsTest {
  @Test
  void everyRuleIsAGroupWithTheObjectsItSelects() {
    JsonNode rules = Json.object().set("relatedResources", Json.MAPPER.createArrayNode()
        .add(rule("v1", "pods").put("namespace", "shop").set("labelSelector",
            Json.object().set("matchLabels", Json.object().put("cluster-name", "orders"))))
        .add(rule("v1", "secrets").put("namespace", "shop").set("names", Json.MAPPER.createArrayNode().add("tls")))
        .add(rule("v1", "configmaps").put("namespace", "shop").set("labelSelector",
            Json.object().set("matchLabels", Json.object().put("cluster-name", "nothing-has-this")))));
    List<JsonNode> observed = List.of(
        object("Pod", "shop", "orders-0", "orders"), object("Pod", "shop", "other-0", "other"),
        object("Pod", "elsewhere", "orders-0", "orders"), object("Secret", "shop", "tls", null),
        object("Secret", "shop", "not-named", null), object("ConfigMap", "shop", "orders-config", "orders"));

    ObjectNode groups = RelatedGroups.of(rules, observed, new ChildKinds(observed), true, "test");

    assertThat(groups.properties().stream().map(e -> e.getKey() + "=" + keys(e.getValue())).toList())
        .containsExactly("Pod.v1=[shop/orders-0]", "Secret.v1=[shop/tls]", "ConfigMap.v1=[]");
  }

  private static ObjectNode rule(String apiVersion, String resource) {
    return Json.object().put("apiVersion", apiVersion).put("resource", resource);
  }

  private static JsonNode object(String kind, String namespace, String name, String cluster) {
    ObjectNode object = Json.object().put("apiVersion", "v1").put("kind", kind);
    ObjectNode metadata = object.putObject("metadata").put("namespace", namespace).put("name", name);
    if (cluster != null) {
      metadata.putObject("labels").put("cluster-name", cluster);
    }
    return object;
  }

  private static List<String> keys(JsonNode group) {
    return group.properties().stream().map(e -> e.getKey()).toList();
  }
}
