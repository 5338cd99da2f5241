package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

class PathCopiesTest {
  private static ObjectNode template() throws Exception {
    return (ObjectNode)
        JsonTrees.MAPPER.readTree(
            "{\"apiVersion\":\"x/v1\",\"kind\":\"T\",\"metadata\":{\"name\":\"t\","
                + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\"}]}]}}");
  }

  @Test
  void aChildChangedAlongItsOwnPathLeavesTheOtherAndTheTemplateAsTheyWere() throws Exception {
    ObjectNode template = template();
    ObjectNode before = template.deepCopy();
    ObjectNode first = PathCopies.of("v1", "Pod", template);
    ObjectNode second = PathCopies.of("v1", "Pod", template);

    PathCopies.object(first, "metadata").put("name", "first");
    ObjectNode container =
        PathCopies.object(PathCopies.array(PathCopies.object(first, "spec"), "containers"), 0);
    PathCopies.array(container, "env").addObject().put("name", "B");

    assertThat(first.toString())
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"first\","
                + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\"},"
                + "{\"name\":\"B\"}]}]}}");
    assertThat(second.toString())
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"t\","
                + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\"}]}]}}");
    assertThat(template).isEqualTo(before);
    // What was not on the path is shared, not copied.
    assertThat(first.path("metadata").get("labels"))
        .isSameAs(template.path("metadata").get("labels"));
    assertThat(first.at("/spec/containers/0/env/0"))
        .isSameAs(template.at("/spec/containers/0/env/0"));
    assertThat(second.get("spec")).isSameAs(template.get("spec"));
  }

  @Test
  void anOwnCopyKeepsItsPlaceAmongTheFields() throws Exception {
    ObjectNode child = PathCopies.of(template());
    ArrayNode containers = PathCopies.array(PathCopies.object(child, "spec"), "containers");
    PathCopies.object(child, "metadata");
    assertThat(child.toString()).isEqualTo(template().toString());
    assertThat(containers).isSameAs(child.at("/spec/containers"));
  }
}
