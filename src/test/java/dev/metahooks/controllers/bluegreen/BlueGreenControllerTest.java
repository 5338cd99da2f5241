package dev.metahooks.controllers.bluegreen;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Requests the hook cannot answer: each is refused with 422 naming the field, never a 500. */
class BlueGreenControllerTest {
  private static final String STEADY =
      "fixtures/bluegreen/sync/03-steady-blue-active-green-idle.request.json";
  private static final String BLUE = "/children/ReplicaSet.apps~1v1/nginx-blue";

  @Test
  void replicaSetWithoutTemplateAnnotation() {
    assertRefused(
        r -> ((ObjectNode) r.at(BLUE + "/metadata/annotations")).remove(PodTemplates.ANNOTATION),
        "children['ReplicaSet.apps/v1']['nginx-blue'].metadata.annotations['"
            + PodTemplates.ANNOTATION
            + "']");
  }

  @Test
  void templateAnnotationThatIsNotJson() {
    assertRefused(
        r ->
            ((ObjectNode) r.at(BLUE + "/metadata/annotations"))
                .put(PodTemplates.ANNOTATION, "{oops"),
        "children['ReplicaSet.apps/v1']['nginx-blue'].metadata.annotations['"
            + PodTemplates.ANNOTATION
            + "']");
  }

  @Test
  void templateAnnotationWithoutLabels() {
    assertRefused(
        r ->
            ((ObjectNode) r.at(BLUE + "/metadata/annotations"))
                .put(PodTemplates.ANNOTATION, "{\"spec\":{}}"),
        "children['ReplicaSet.apps/v1']['nginx-blue'].metadata.annotations['"
            + PodTemplates.ANNOTATION
            + "'].metadata");
  }

  @Test
  void parentWithoutServiceName() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec/service/metadata")).remove("name"),
        "parent.spec.service.metadata.name");
  }

  @Test
  void serviceWithoutSelector() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec/service/spec")).remove("selector"),
        "parent.spec.service.spec.selector");
  }

  @Test
  void templateWithoutLabels() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec/template/metadata")).remove("labels"),
        "parent.spec.template.metadata.labels");
  }

  @Test
  void replicasNotANumber() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec")).put("replicas", "3"), "parent.spec.replicas");
  }

  @Test
  void missingServiceGroup() {
    assertRefused(
        r -> ((ObjectNode) r.get("children")).remove("Service.v1"), "children['Service.v1']");
  }

  private static void assertRefused(Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request = Resources.readObject(Resources.path(STEADY));
    breakIt.accept(request);
    HookAnswers.Answer answer =
        HookAnswers.call("bluegreen", "sync", request.toString().getBytes());
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
