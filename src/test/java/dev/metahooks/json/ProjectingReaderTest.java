package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.testing.Resources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProjectingReaderTest {
  private static final Projection PODS = Projection.NONE.without("Pod.v1", "spec", "metadata.managedFields");

  @Test
  void withoutAProjectedGroupEveryRequestParsesAsReadTreeParsesIt() throws Exception {
    Projection other = Projection.NONE.without("Nothing.v9", "spec");
    int compared = 0;
    for (Path file : Resources.find(Resources.ROOT, ".request.json")) {
      byte[] body = Resources.bytes(file);
      JsonNode plain;
      try {
        plain = Json.parse(body);
      } catch (Exception refused) {
        continue; // a regression body that the parser refuses is compared below as refused by both
      }
      assertThat(Json.parse(body, other)).as(file.toString()).isEqualTo(plain);
      compared++;
    }
    assertThat(compared).isGreaterThan(100);
  }

  @Test
  void projectedFieldsOfObservedObjectsAreSkippedAndTheRestIsKept() throws Exception {
    String request = """
        {"parent": {"spec": {"keep": 1}, "metadata": {"name": "p", "managedFields": [1]}},
         "children": {"Pod.v1": {"web-0": {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "web-0", "namespace": "d", "managedFields": [{"a": 1}], "uid": "u"},
             "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Running", "n": 1.5, "big": 12345678901}}},
           "Service.v1": {"s": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"x": 1}}}}}
        """;
    ObjectNode tree = (ObjectNode) Json.parse(request.getBytes(StandardCharsets.UTF_8), PODS);
    JsonNode pod = tree.at("/children/Pod.v1/web-0");
    assertThat(pod.has("spec")).isFalse();
    assertThat(pod.path("metadata").has("managedFields")).isFalse();
    assertThat(pod.path("metadata").path("uid").asText()).isEqualTo("u");
    assertThat(pod.path("status").path("n").doubleValue()).isEqualTo(1.5);
    assertThat(pod.path("status").path("big").longValue()).isEqualTo(12345678901L);
    assertThat(tree.at("/children/Service.v1/s/spec/x").intValue()).isEqualTo(1); // another group: whole
    assertThat(tree.at("/parent/spec/keep").intValue()).isEqualTo(1); // outside the object maps: whole
    assertThat(tree.at("/parent/metadata/managedFields").isArray()).isTrue();
  }

  @Test
  void malformedAndTrailingInputIsRefusedAsByReadTree() {
    for (String bad : new String[] {"{\"children\": {\"Pod.v1\": {\"a\": {}}}} {}", "{\"a\": 1, \"a\": 2}",
        "{\"children\": {\"Pod.v1\": {\"a\": {\"spec\": [}}}}"}) {
      byte[] body = bad.getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> Json.parse(body)).as(bad).isInstanceOf(java.io.IOException.class);
      assertThatThrownBy(() -> Json.parse(body, PODS)).as(bad).isInstanceOf(java.io.IOException.class);
    }
  }

  @Test
  void theTreeBudgetHoldsForWhatIsBuiltNotForWhatIsSkipped() throws Exception {
    String bomb = "[]," .repeat(2_000_000);
    byte[] inKeptField = ("{\"children\": {\"Pod.v1\": {\"a\": {\"status\": [" + bomb + "[]]}}}}")
        .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Json.parse(inKeptField, PODS)).isInstanceOf(TreeTooLargeException.class);
    byte[] inSkippedField = ("{\"children\": {\"Pod.v1\": {\"a\": {\"spec\": [" + bomb + "[]]}}}}")
        .getBytes(StandardCharsets.UTF_8);
    assertThat(Json.parse(inSkippedField, PODS).at("/children/Pod.v1/a").isEmpty()).isTrue();
  }

  @Test
  void whatTheWireModelReadsCannotBeSkipped() {
    for (String path : new String[] {"kind", "apiVersion", "metadata", "metadata.name", "metadata.namespace"}) {
      assertThatThrownBy(() -> Projection.NONE.without("Pod.v1", path)).as(path)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(Projection.NONE.without("Pod.v1", "metadata.labels").isEmpty()).isFalse();
  }
}
