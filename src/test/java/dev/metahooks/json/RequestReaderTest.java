package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.Resources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RequestReaderTest {
  private static final Projection PODS =
      Projection.NONE.reading(
          "Pod.v1", "metadata.uid", "metadata.annotations['example.com/a.b']", "status");

  @Test
  void withoutAProjectedGroupEveryRequestParsesAsReadTreeParsesIt() throws Exception {
    Projection other = Projection.NONE.reading("Nothing.v9", "spec");
    int compared = 0;
    for (Path file : Resources.find(Resources.ROOT, ".request.json")) {
      byte[] body = Resources.bytes(file);
      JsonNode plain;
      try {
        plain = Json.parse(body);
      } catch (Exception refused) {
        continue; // a regression body that the parser refuses is compared below as refused by both
      }
      assertThat(JsonTrees.parse(body, other)).as(file.toString()).isEqualTo(plain);
      compared++;
    }
    assertThat(compared).isGreaterThan(100);
  }

  @Test
  void observedObjectsOfAProjectedTypeKeepWhatIsReadAndTheirIdentity() throws Exception {
    String request =
        """
        {"parent": {"spec": {"keep": 1}, "metadata": {"name": "p", "managedFields": [1]}},
         "children": {"Pod.v1": {"web-0": {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "web-0", "namespace": "d", "managedFields": [{"a": 1}], "uid": "u",
                 "annotations": {"example.com/a.b": "kept", "example.com/a": "skipped"}, "labels": {"x": "y"}},
             "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Running", "n": 1.5, "big": 12345678901}}},
           "Service.v1": {"s": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"x": 1}}}}}
        """;
    ObjectNode tree = (ObjectNode) JsonTrees.parse(request.getBytes(StandardCharsets.UTF_8), PODS);
    JsonNode pod = tree.at("/children/Pod.v1/web-0");
    assertThat(pod.properties())
        .extracting(java.util.Map.Entry::getKey)
        .containsExactly("apiVersion", "kind", "metadata", "status");
    assertThat(pod.path("metadata").properties())
        .extracting(java.util.Map.Entry::getKey)
        .containsExactly("name", "namespace", "uid", "annotations");
    assertThat(pod.path("metadata").path("annotations").toString())
        .isEqualTo("{\"example.com/a.b\":\"kept\"}");
    assertThat(pod.path("status").path("n").doubleValue()).isEqualTo(1.5);
    assertThat(pod.path("status").path("big").longValue()).isEqualTo(12345678901L);
    assertThat(tree.at("/children/Service.v1/s/spec/x").intValue())
        .isEqualTo(1); // another group: whole
    assertThat(tree.at("/parent/spec/keep").intValue())
        .isEqualTo(1); // outside the object maps: whole
    assertThat(tree.at("/parent/metadata/managedFields").isArray()).isTrue();
  }

  @Test
  void aPathThroughAnArrayKeepsThatFieldOfEachElementAndValuesOfAnotherShapeWhole()
      throws Exception {
    Projection conditions =
        Projection.NONE.reading("Pod.v1", "status.conditions.type", "metadata.labels.app");
    String request =
        """
        {"children": {"Pod.v1": {
          "a": {"metadata": {"name": "a", "labels": "not an object"},
                "status": {"conditions": [{"type": "Ready", "status": "True"}, "text", [{"type": 1, "x": 2}]]}},
          "b": {"metadata": {"name": "b"}, "status": ["not", "an", "object"]}}}}
        """;
    JsonNode pods =
        JsonTrees.parse(request.getBytes(StandardCharsets.UTF_8), conditions)
            .at("/children/Pod.v1");
    assertThat(pods.at("/a/status/conditions").toString())
        .isEqualTo("[{\"type\":\"Ready\"},\"text\",[{\"type\":1}]]");
    assertThat(pods.at("/a/metadata/labels").textValue()).isEqualTo("not an object");
    assertThat(pods.at("/b/status").toString()).isEqualTo("[\"not\",\"an\",\"object\"]");
  }

  @Test
  void pathsAreDottedNamesWithBracketedKeys() {
    assertThat(Projection.names("metadata.annotations['a.example.com/b'].c"))
        .containsExactly("metadata", "annotations", "a.example.com/b", "c");
    assertThat(Projection.names("a[b.c][d]")).containsExactly("a", "b.c", "d");
    for (String bad : new String[] {"", "a.", ".a", "a..b", "a['b", "a[]", "a['b']c"}) {
      assertThatThrownBy(() -> Projection.names(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("field path '" + bad + "'");
    }
  }

  @Test
  void aPathKeptWholeCoversTheLongerOnesWhateverTheOrder() throws Exception {
    byte[] body =
        """
        {"children": {"Pod.v1": {"a": {"metadata": {"name": "a"}, "status": {"phase": "x", "other": 1}}}}}
        """
            .getBytes(StandardCharsets.UTF_8);
    for (Projection both :
        new Projection[] {
          Projection.NONE.reading("Pod.v1", "status", "status.phase"),
          Projection.NONE.reading("Pod.v1", "status.phase").reading("Pod.v1", "status")
        }) {
      assertThat(JsonTrees.parse(body, both).at("/children/Pod.v1/a/status/other").intValue())
          .isEqualTo(1);
    }
  }

  @Test
  void malformedAndTrailingInputIsRefusedAsByReadTree() {
    for (String bad :
        new String[] {
          "{\"children\": {\"Pod.v1\": {\"a\": {}}}} {}",
          "{\"a\": 1, \"a\": 2}",
          "{\"children\": {\"Pod.v1\": {\"a\": {\"spec\": [}}}}"
        }) {
      byte[] body = bad.getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> Json.parse(body)).as(bad).isInstanceOf(java.io.IOException.class);
      assertThatThrownBy(() -> JsonTrees.parse(body, PODS))
          .as(bad)
          .isInstanceOf(java.io.IOException.class);
    }
  }

  @Test
  void theTreeBudgetHoldsForWhatIsBuiltNotForWhatIsSkipped() throws Exception {
    String bomb = "[],".repeat(2_000_000);
    byte[] inKeptField =
        ("{\"children\": {\"Pod.v1\": {\"a\": {\"status\": [" + bomb + "[]]}}}}")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> JsonTrees.parse(inKeptField, PODS))
        .isInstanceOf(TreeTooLargeException.class);
    byte[] inSkippedField =
        ("{\"children\": {\"Pod.v1\": {\"a\": {\"spec\": [" + bomb + "[]]}}}}")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(JsonTrees.parse(inSkippedField, PODS).at("/children/Pod.v1/a").isEmpty()).isTrue();
  }

  @Test
  void theTokenizersLimitsHoldInSkippedFieldsToo() {
    String deep = "[".repeat(250) + "]".repeat(250);
    String longNumber = "1".repeat(150);
    String longName = "{\"" + "n".repeat(70 * 1024) + "\": 1}";
    String longString = "\"" + "s".repeat(17 * 1024 * 1024) + "\"";
    java.util.Map<String, String> limits =
        java.util.Map.of(
            "nesting", deep, "number", longNumber, "name", longName, "string", longString);
    java.util.List<String> passed = new java.util.ArrayList<>();
    limits.forEach(
        (limit, value) -> {
          byte[] body =
              ("{\"children\": {\"Pod.v1\": {\"a\": {\"metadata\": {\"name\": \"a\"}, \"spec\": "
                      + value
                      + "}}}}")
                  .getBytes(StandardCharsets.UTF_8);
          assertThatThrownBy(() -> Json.parse(body))
              .as(limit)
              .isInstanceOf(java.io.IOException.class);
          try {
            JsonTrees.parse(body, PODS);
            passed.add(limit);
          } catch (java.io.IOException refused) {
            // as it should be
          }
        });
    assertThat(passed).isEmpty();
  }

  @Test
  void whatTheWireModelReadsIsAlwaysKept() throws Exception {
    byte[] body =
        """
        {"children": {"Pod.v1": {"d/a": {"apiVersion": "v1", "kind": "Pod",
          "metadata": {"name": "a", "namespace": "d", "uid": "u"}, "spec": {}}}}}
        """
            .getBytes(StandardCharsets.UTF_8);
    assertThat(
            JsonTrees.parse(body, Projection.NONE.reading("Pod.v1"))
                .at("/children/Pod.v1/d~1a")
                .toString())
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"d\"}}");
    assertThat(Projection.NONE.reading("Pod.v1").isEmpty()).isFalse();
  }
}
