package dev.metahooks.controllers.indexedjob;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexedJobControllerTest {
  private static final String TEMPLATE =
      "\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";

  @Test
  void readsIndexesAsPythonDoes() {
    assertThat(IndexedJobPods.index("job", "job-00")).isEqualTo(BigInteger.ZERO);
    assertThat(IndexedJobPods.index("job-7", "job-7-12")).isEqualTo(BigInteger.valueOf(12));
    assertThat(IndexedJobPods.index("job", "job-7-12")).isNull();
    assertThat(IndexedJobPods.index("job", "job-99999999999999999999999"))
        .isEqualTo(new BigInteger("99999999999999999999999"));
    assertThat(IndexedJobPods.index("job", "jobs-1")).isNull();
  }

  @Test
  void startsPodsUpToParallelismCountingObservedActivePods() {
    CompositeResponse response =
        sync(
            "{\"completions\":5,\"parallelism\":2," + TEMPLATE + "}",
            Map.of("job-0", "Succeeded", "job-1", "Running"));
    assertThat(names(response)).containsExactly("job-0", "job-1", "job-2");
    assertThat(response.status())
        .isEqualTo(
            json(
                "{\"active\":1,\"succeeded\":1,\"failed\":0,\"conditions\":[{\"type\":\"Complete\",\"status\":\"False\"}]}"));
  }

  @Test
  void parallelismAsTextAllowsEveryIndexAtOnce() {
    // Python 2 orders every number below every string, so upstream never stops starting Pods.
    assertThat(names(sync("{\"completions\":4,\"parallelism\":\"2\"," + TEMPLATE + "}", Map.of())))
        .containsExactly("job-0", "job-1", "job-2", "job-3");
  }

  @Test
  void nullParallelismStartsNothing() {
    assertThat(names(sync("{\"completions\":4,\"parallelism\":null," + TEMPLATE + "}", Map.of())))
        .isEmpty();
  }

  @Test
  void booleanCompletionsCountAsOneAndZero() {
    CompositeResponse response =
        sync("{\"completions\":true," + TEMPLATE + "}", Map.of("job-0", "Succeeded"));
    assertThat(response.status().path("conditions").get(0).path("status").asText())
        .isEqualTo("True");
    assertThat(names(sync("{\"completions\":false," + TEMPLATE + "}", Map.of()))).isEmpty();
  }

  @Test
  void refusesCompletionsPythonCannotCountTo() {
    for (String completions : List.of("\"3\"", "null", "2.5", "[]")) {
      assertThatThrownBy(
              () -> sync("{\"completions\":" + completions + "," + TEMPLATE + "}", Map.of()))
          .as(completions)
          .isInstanceOf(InvalidRequestException.class)
          .extracting(e -> ((InvalidRequestException) e).field())
          .isEqualTo("parent.spec.completions");
    }
  }

  @Test
  void negativeCompletionsStartNothing() {
    assertThat(
            names(sync("{\"completions\":-100000000000000000000000," + TEMPLATE + "}", Map.of())))
        .isEmpty();
  }

  @Test
  void aConditionWithoutTypeDoesNotFinishTheJob() {
    ObjectNode job = Json.object();
    job.putObject("status").putArray("conditions").addObject().put("status", "True");
    assertThat(IndexedJobController.finished(job)).isFalse();
    ((ObjectNode) job.get("status").get("conditions").get(0)).put("type", "Failed");
    assertThat(IndexedJobController.finished(job)).isTrue();
  }

  @Test
  void appendsJobIndexToExistingEnv() {
    CompositeResponse response =
        sync(
            "{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
                + "\"env\":[{\"name\":\"JOB_INDEX\",\"value\":\"x\"}]}]}}}",
            Map.of());
    assertThat(response.children().get(0).path("spec").path("containers").get(0).path("env"))
        .isEqualTo(
            json(
                "[{\"name\":\"JOB_INDEX\",\"value\":\"x\"},{\"name\":\"JOB_INDEX\",\"value\":\"0\"}]"));
  }

  @Test
  void refusesToStartAnAbsurdNumberOfPods() {
    assertThatThrownBy(
            () ->
                sync(
                    "{\"completions\":1000000,\"parallelism\":\"all\"," + TEMPLATE + "}", Map.of()))
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.parallelism");
  }

  private static CompositeResponse sync(String spec, Map<String, String> podPhases) {
    ObjectNode body = Json.object();
    ObjectNode parent =
        body.putObject("parent").put("apiVersion", "ctl.enisoc.com/v1").put("kind", "IndexedJob");
    parent.putObject("metadata").put("name", "job").put("namespace", "default");
    try {
      parent.set("spec", JsonTrees.MAPPER.readTree(spec));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
    ObjectNode pods = body.putObject("children").putObject("Pod.v1");
    podPhases.forEach(
        (name, phase) -> {
          ObjectNode pod = pods.putObject(name).put("apiVersion", "v1").put("kind", "Pod");
          pod.putObject("metadata").put("name", name).put("namespace", "default");
          pod.putObject("status").put("phase", phase);
        });
    return IndexedJobController.sync(CompositeRequest.read(body, Hook.SYNC));
  }

  private static List<String> names(CompositeResponse response) {
    return response.children().stream().map(c -> c.path("metadata").path("name").asText()).toList();
  }
}
