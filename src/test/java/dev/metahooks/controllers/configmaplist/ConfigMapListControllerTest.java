package dev.metahooks.controllers.configmaplist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Requests the hooks refuse (422 naming the field), built from the golden fixtures with one thing broken. */
class ConfigMapListControllerTest {
  private static final String FIRST_SYNC = "sync/01-first-sync-lists-source-configmaps";
  private static final String CUSTOMIZE = "customize/01-labels-in-one-namespace";

  @Test
  void customizeNeedsSourceLabels() {
    assertRefused(CUSTOMIZE, r -> spec(r).remove("sourceLabels"), "parent.spec.sourceLabels");
    assertRefused(
        CUSTOMIZE, r -> spec(r).put("sourceLabels", "app=my-app"), "parent.spec.sourceLabels");
    assertRefused(
        CUSTOMIZE,
        r -> spec(r).withObjectProperty("sourceLabels").put("replicas", 3),
        "parent.spec.sourceLabels['replicas']");
    assertRefused(
        CUSTOMIZE, r -> spec(r).put("sourceNamespace", false), "parent.spec.sourceNamespace");
  }

  @Test
  void nullSourceNamespaceMeansEveryNamespace() {
    ObjectNode request = fixture(CUSTOMIZE);
    spec(request).putNull("sourceNamespace");
    HookAnswers.Answer answer = call("customize", request);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().at("/relatedResources/0").has("namespace")).isFalse();
  }

  @Test
  void syncNeedsANamespacedParent() {
    assertRefused(
        FIRST_SYNC,
        r -> {
          r.withObjectProperty("parent").withObjectProperty("metadata").remove("namespace");
          r.withObjectProperty("children").putObject("ConfigMap.v1");
        },
        "parent.metadata.namespace");
  }

  private static ObjectNode spec(ObjectNode request) {
    return request.withObjectProperty("parent").withObjectProperty("spec");
  }

  private static ObjectNode fixture(String name) {
    return Resources.readObject(
        Resources.path("fixtures/configmap-list/" + name + ".request.json"));
  }

  private static HookAnswers.Answer call(String hook, ObjectNode request) {
    return HookAnswers.call("configmap-list", hook, request);
  }

  private static void assertRefused(String fixture, Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request = fixture(fixture);
    breakIt.accept(request);
    HookAnswers.Answer answer = call(fixture.substring(0, fixture.indexOf('/')), request);
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
