package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.json.JsonTrees;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Responses carry exactly the contract's fields: absent optional fields are left out, children always an array. */
class ResponseJsonTest {
  private static String write(Object value) throws Exception {
    return JsonTrees.MAPPER.writeValueAsString(value);
  }

  @Test
  void compositeResponseOmitsAbsentFields() throws Exception {
    assertThat(write(CompositeResponse.of(null, null))).isEqualTo("{\"children\":[]}");
    assertThat(
            write(
                CompositeResponse.of(Json.object().put("a", 1), List.of())
                    .withFinalized(true)
                    .withResyncAfterSeconds(2.5)))
        .isEqualTo(
            "{\"status\":{\"a\":1},\"children\":[],\"resyncAfterSeconds\":2.5,\"finalized\":true}");
  }

  @Test
  void decoratorResponseKeepsNullLabelValuesThatDeleteKeys() throws Exception {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("keep", "yes");
    labels.put("drop", null);
    assertThat(write(DecoratorResponse.labels(labels)))
        .isEqualTo("{\"labels\":{\"keep\":\"yes\",\"drop\":null}}");
    assertThat(write(DecoratorResponse.attachments(List.of()))).isEqualTo("{\"attachments\":[]}");
  }

  @Test
  void relatedRulesOmitUnsetFieldsButKeepAnEmptySelector() throws Exception {
    CustomizeResponse response =
        CustomizeResponse.of(
            CustomizeResponse.RelatedResourceRule.of("v1", "configmaps")
                .inNamespace("global")
                .withNames(List.of("s")),
            CustomizeResponse.RelatedResourceRule.of("v1", "namespaces")
                .withLabelSelector(Json.object()));
    assertThat(write(response))
        .isEqualTo(
            "{\"relatedResources\":["
                + "{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"namespace\":\"global\",\"names\":[\"s\"]},"
                + "{\"apiVersion\":\"v1\",\"resource\":\"namespaces\",\"labelSelector\":{}}]}");
  }
}
