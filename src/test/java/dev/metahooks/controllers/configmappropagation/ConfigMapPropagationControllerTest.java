package dev.metahooks.controllers.configmappropagation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Requests the hooks refuse (422 naming the field), built from the golden fixtures with one thing broken. */
class ConfigMapPropagationControllerTest {
  private static final String FIRST_SYNC = "sync/01-first-sync-copies-into-each-target";
  private static final String CUSTOMIZE = "customize/01-source-by-namespace-and-name";

  @Test
  void missingOrMalformedSpecFieldsAreNamed() {
    assertRefused(
        FIRST_SYNC, r -> spec(r).remove("targetNamespaces"), "parent.spec.targetNamespaces");
    assertRefused(
        FIRST_SYNC, r -> spec(r).put("targetNamespaces", "one"), "parent.spec.targetNamespaces");
    assertRefused(
        FIRST_SYNC,
        r -> spec(r).putArray("targetNamespaces").add("one").add(""),
        "parent.spec.targetNamespaces[1]");
    assertRefused(FIRST_SYNC, r -> spec(r).remove("sourceName"), "parent.spec.sourceName");
    assertRefused(CUSTOMIZE, r -> spec(r).remove("sourceName"), "parent.spec.sourceName");
    assertRefused(
        CUSTOMIZE, r -> spec(r).put("sourceNamespace", ""), "parent.spec.sourceNamespace");
    assertRefused(
        CUSTOMIZE, r -> r.withObjectProperty("parent").remove("spec"), "parent.spec.sourceName");
  }

  @Test
  void malformedSourceDataIsNamed() {
    assertRefused(
        FIRST_SYNC,
        r -> source(r).put("data", "not a map"),
        "related['ConfigMap.v1']['original/settings'].data");
    assertRefused(
        FIRST_SYNC,
        r -> source(r).putObject("binaryData").put("a", 1),
        "related['ConfigMap.v1']['original/settings'].binaryData['a']");
  }

  @Test
  void missingChildrenGroupIsRefused() {
    assertRefused(
        FIRST_SYNC,
        r -> r.withObjectProperty("children").remove("ConfigMap.v1"),
        "children['ConfigMap.v1']");
  }

  private static ObjectNode spec(ObjectNode request) {
    return request.withObjectProperty("parent").withObjectProperty("spec");
  }

  private static ObjectNode source(ObjectNode request) {
    return request
        .withObjectProperty("related")
        .withObjectProperty("ConfigMap.v1")
        .withObjectProperty("original/settings");
  }

  private static void assertRefused(String fixture, Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request =
        Resources.readObject(
            Resources.path("fixtures/configmap-propagation/" + fixture + ".request.json"));
    breakIt.accept(request);
    String hook = fixture.substring(0, fixture.indexOf('/'));
    HookAnswers.Answer answer;
    try {
      answer =
          HookAnswers.call(
              "configmap-propagation", hook, JsonTrees.MAPPER.writeValueAsBytes(request));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
