package dev.metahooks.controllers.daemonjob;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DaemonJobControllerTest {
  private static final String FIRST =
      "fixtures/daemonjob/sync/01-first-sync-no-daemonset.request.json";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"desiredNumberScheduled\": 3, \"numberReady\": 3} | true",
        "{\"desiredNumberScheduled\": 3, \"numberReady\": 2} | false",
        "{\"desiredNumberScheduled\": 0, \"numberReady\": 0} | false",
        "{\"numberReady\": 1}                                 | true",
        "{\"desiredNumberScheduled\": 1}                      | false",
        "{}                                                   | false",
        "{\"desiredNumberScheduled\": \"3\", \"numberReady\": 3} | false",
        "null                                                 | false"
      })
  void finishedWhenEveryScheduledPodIsReady(String status, boolean finished) throws Exception {
    assertThat(DaemonJobController.isFinished(JsonTrees.MAPPER.readTree(status)))
        .isEqualTo(finished);
  }

  @Test
  void templateWithoutLabelsIsRefused() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec/template/metadata")).remove("labels"),
        "parent.spec.template.metadata.labels");
  }

  @Test
  void templateWithoutContainersIsRefused() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec/template/spec")).remove("containers"),
        "parent.spec.template.spec.containers");
  }

  @Test
  void pauseImageNotAStringIsRefused() {
    assertRefused(
        r -> ((ObjectNode) r.at("/parent/spec")).put("pauseImage", 3), "parent.spec.pauseImage");
  }

  @Test
  void missingDaemonSetGroupIsRefused() {
    assertRefused(
        r -> ((ObjectNode) r.get("children")).remove("DaemonSet.apps/v1"),
        "children['DaemonSet.apps/v1']");
  }

  private static void assertRefused(Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request = Resources.readObject(Resources.path(FIRST));
    breakIt.accept(request);
    HookAnswers.Answer answer =
        HookAnswers.call("daemonjob", "sync", request.toString().getBytes());
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
