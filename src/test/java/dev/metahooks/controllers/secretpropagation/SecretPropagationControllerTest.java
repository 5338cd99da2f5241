package dev.metahooks.controllers.secretpropagation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Requests the hooks refuse (422 naming the field), built from the golden fixtures with one thing broken. */
class SecretPropagationControllerTest {
  private static final String FIRST_SYNC = "sync/01-first-sync-copies-into-matching-namespaces";
  private static final String CUSTOMIZE = "customize/01-source-and-selected-namespaces";

  @Test
  void customizeNeedsTheTargetSelector() {
    assertRefused(
        CUSTOMIZE,
        r -> spec(r).remove("targetNamespaceLabelSelector"),
        "parent.spec.targetNamespaceLabelSelector");
    assertRefused(
        CUSTOMIZE,
        r -> spec(r).putNull("targetNamespaceLabelSelector"),
        "parent.spec.targetNamespaceLabelSelector");
    assertRefused(
        CUSTOMIZE,
        r -> spec(r).withObjectProperty("targetNamespaceLabelSelector").remove("matchLabels"),
        null);
    assertRefused(
        CUSTOMIZE,
        r ->
            spec(r)
                .withObjectProperty("targetNamespaceLabelSelector")
                .set("matchLabel", Json.object().put("propagate", "true")),
        "parent.spec.targetNamespaceLabelSelector.matchLabel");
  }

  @Test
  void syncDoesNotReadTheSelector() {
    ObjectNode request = fixture(FIRST_SYNC);
    spec(request).remove("targetNamespaceLabelSelector");
    assertThat(call("sync", request).status()).isEqualTo(200);
  }

  @Test
  void missingOrMalformedSpecFieldsAreNamed() {
    assertRefused(FIRST_SYNC, r -> spec(r).remove("sourceName"), "parent.spec.sourceName");
    assertRefused(
        CUSTOMIZE, r -> spec(r).putArray("sourceNamespace"), "parent.spec.sourceNamespace");
    assertRefused(
        FIRST_SYNC,
        r ->
            r.withObjectProperty("related")
                .withObjectProperty("Secret.v1")
                .withObjectProperty("omega/shareable")
                .put("data", 3),
        "related['Secret.v1']['omega/shareable'].data");
  }

  private static ObjectNode spec(ObjectNode request) {
    return request.withObjectProperty("parent").withObjectProperty("spec");
  }

  private static ObjectNode fixture(String name) {
    return Resources.readObject(
        Resources.path("fixtures/secret-propagation/" + name + ".request.json"));
  }

  private static HookAnswers.Answer call(String hook, ObjectNode request) {
    return HookAnswers.call("secret-propagation", hook, request);
  }

  /** {@code field} null: the request is still fine (200). */
  private static void assertRefused(String fixture, Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request = fixture(fixture);
    breakIt.accept(request);
    HookAnswers.Answer answer = call(fixture.substring(0, fixture.indexOf('/')), request);
    if (field == null) {
      assertThat(answer.status()).as("%s", answer.body()).isEqualTo(200);
      return;
    }
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
