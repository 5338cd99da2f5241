package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

class LabelSelectorsTest {
  private static JsonNode json(String text) throws Exception {
    return JsonTrees.MAPPER.readTree(text);
  }

  @Test
  void emptySelectorStaysEmpty() throws Exception {
    assertThat(LabelSelectors.copy(json("{}"), "s")).isEqualTo(json("{}"));
  }

  @Test
  void validSelectorIsCopiedAsGiven() throws Exception {
    String text =
        "{\"matchLabels\":{\"a\":\"b\"},\"matchExpressions\":[{\"key\":\"env\",\"operator\":\"NotIn\","
            + "\"values\":[\"prod\"]},{\"key\":\"team\",\"operator\":\"Exists\"},{\"key\":\"x\",\"operator\":\"DoesNotExist\",\"values\":[]}]}";
    assertThat(LabelSelectors.copy(json(text), "s")).isEqualTo(json(text));
  }

  @Test
  void emptyMatchLabelsIsKept() throws Exception {
    assertThat(LabelSelectors.copy(json("{\"matchLabels\":{}}"), "s"))
        .isEqualTo(json("{\"matchLabels\":{}}"));
  }

  @Test
  void nullMembersAreDropped() throws Exception {
    assertThat(LabelSelectors.copy(json("{\"matchLabels\":null,\"matchExpressions\":null}"), "s"))
        .isEqualTo(json("{}"));
  }

  @Test
  void misspeltFieldIsRefusedRatherThanWideningTheSelection() {
    assertThatThrownBy(
            () -> LabelSelectors.copy(json("{\"matchLabel\":{\"a\":\"b\"}}"), "parent.spec.sel"))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.sel.matchLabel");
  }

  @Test
  void badShapesNameTheField() {
    assertField("[]", "s");
    assertField("{\"matchLabels\":{\"a\":1}}", "s.matchLabels['a']");
    assertField("{\"matchLabels\":[]}", "s.matchLabels");
    assertField("{\"matchExpressions\":{}}", "s.matchExpressions");
    assertField("{\"matchExpressions\":[\"x\"]}", "s.matchExpressions[0]");
    assertField("{\"matchExpressions\":[{\"operator\":\"Exists\"}]}", "s.matchExpressions[0].key");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Equals\"}]}",
        "s.matchExpressions[0].operator");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\"}]}",
        "s.matchExpressions[0].values");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[]}]}",
        "s.matchExpressions[0].values");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\",\"values\":[\"b\"]}]}",
        "s.matchExpressions[0].values");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[1]}]}",
        "s.matchExpressions[0].values[0]");
    assertField(
        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\",\"values\":[\"b\"],\"value\":\"c\"}]}",
        "s.matchExpressions[0].value");
  }

  private static void assertField(String selector, String field) {
    assertThatThrownBy(() -> LabelSelectors.copy(json(selector), "s"))
        .as(selector)
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo(field);
  }
}
