package dev.metahooks.controllers.globalconfigmap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Requests the hooks refuse (422 naming the field), built from the golden fixtures with one thing broken. */
class GlobalConfigMapControllerTest {
  private static final String FIRST_SYNC =
      "sync/01-first-sync-copies-everywhere-but-source-namespace";
  private static final String CUSTOMIZE = "customize/01-source-and-every-namespace";

  @Test
  void missingOrMalformedSpecFieldsAreNamed() {
    assertRefused(
        FIRST_SYNC, r -> spec(r).remove("sourceNamespace"), "parent.spec.sourceNamespace");
    assertRefused(FIRST_SYNC, r -> spec(r).put("sourceName", 7), "parent.spec.sourceName");
    assertRefused(CUSTOMIZE, r -> spec(r).remove("sourceName"), "parent.spec.sourceName");
    assertRefused(CUSTOMIZE, r -> r.withObjectProperty("parent").put("spec", "x"), "parent.spec");
  }

  @Test
  void malformedSourceDataIsNamed() {
    assertRefused(
        FIRST_SYNC,
        r -> source(r).putObject("data").putNull("k"),
        "related['ConfigMap.v1']['global/globalsettings'].data['k']");
  }

  @Test
  void relatedKeysOfTheWrongHookVersionAreRefused() {
    assertRefused(
        FIRST_SYNC,
        r -> {
          ObjectNode related = r.withObjectProperty("related").withObjectProperty("ConfigMap.v1");
          related.set("globalsettings", related.remove("global/globalsettings"));
        },
        "related['ConfigMap.v1']['globalsettings']");
  }

  private static ObjectNode spec(ObjectNode request) {
    return request.withObjectProperty("parent").withObjectProperty("spec");
  }

  private static ObjectNode source(ObjectNode request) {
    return request
        .withObjectProperty("related")
        .withObjectProperty("ConfigMap.v1")
        .withObjectProperty("global/globalsettings");
  }

  private static void assertRefused(String fixture, Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request =
        Resources.readObject(
            Resources.path("fixtures/global-configmap/" + fixture + ".request.json"));
    breakIt.accept(request);
    String hook = fixture.substring(0, fixture.indexOf('/'));
    HookAnswers.Answer answer;
    try {
      answer =
          HookAnswers.call("global-configmap", hook, JsonTrees.MAPPER.writeValueAsBytes(request));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
