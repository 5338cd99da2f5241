package dev.metahooks.controllers.postgres.plan;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.json.JsonTrees;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** spec.patroni: in the bootstrap DCS configuration once, in the parameters Job's PATCH /config always. */
class PatroniSettingsTest {

  @Test
  void aNewClusterBootstrapsWithTheSettingsAndTheParametersJobSendsThem() throws Exception {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 3));
    world.sync();
    assertThat(spiloConfiguration(world).path("bootstrap").path("dcs"))
        .isEqualTo(
            json(
                "{\"failsafe_mode\":true,\"synchronous_mode\":false,\"synchronous_mode_strict\":false,\"synchronous_node_count\":1}"));
    assertThat(patch(world))
        .isEqualTo(
            json(
                "{\"failsafe_mode\":true,\"synchronous_mode\":false,\"synchronous_mode_strict\":false,\"synchronous_node_count\":1}"));
  }

  @Test
  void aChangeOnARunningClusterGoesThroughTheParametersJobAloneAndRestartsNothing()
      throws Exception {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 3));
    world.sync();
    world.runAllReady();
    world.sync();
    JsonNode template = world.statefulSet().at("/spec/template").deepCopy();
    String firstJob = parametersJob(world).at("/metadata/name").asText();

    world.edit(
        spec ->
            spec.putObject("patroni")
                .put("failsafeMode", false)
                .putObject("synchronous")
                .put("mode", "strict")
                .put("nodeCount", 2));
    world
        .spec
        .withObjectProperty("postgresql")
        .withObjectProperty("parameters")
        .put("work_mem", "8MB");
    JsonNode answer = world.sync();

    assertThat(world.statefulSet().at("/spec/template"))
        .as("the pod template is unchanged")
        .isEqualTo(template);
    assertThat(answer.at("/status").has("rollout")).isFalse();
    assertThat(parametersJob(world).at("/metadata/name").asText()).isNotEqualTo(firstJob);
    assertThat(patch(world))
        .isEqualTo(
            json(
                "{\"failsafe_mode\":false,\"synchronous_mode\":true,"
                    + "\"synchronous_mode_strict\":true,\"synchronous_node_count\":2,\"postgresql\":{\"parameters\":{\"work_mem\":\"8MB\"}}}"));
  }

  @Test
  void aStatefulSetRenderedBeforeTheseSettingsKeepsItsTemplate() {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 2));
    world.sync();
    // As an earlier release rendered it: no availability settings in the bootstrap configuration.
    ObjectNode variable = spiloVariable(world);
    variable.put(
        "value",
        "{\"restapi\":{\"authentication\":{\"username\":\"patroni\",\"password\":\"$("
            + StatefulSets.RESTAPI_PASSWORD_VARIABLE
            + ")\"}}}");
    String before = variable.path("value").asText();
    world.sync();
    assertThat(spiloVariable(world).path("value").asText()).isEqualTo(before);
  }

  @Test
  void aFailedParametersJobSaysWhyAndChangesNothingElse() {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 2));
    world.sync();
    world.runAllReady();
    JsonNode applying = world.sync();
    assertThat(condition(applying, "ConfigurationApplied").path("reason").asText())
        .isEqualTo("Applying");
    ObjectNode job = parametersJob(world);
    job.putObject("status")
        .put("failed", 7)
        .putArray("conditions")
        .addObject()
        .put("type", "Failed")
        .put("status", "True")
        .put("reason", "BackoffLimitExceeded");
    Map<String, ObjectNode> before = Map.copyOf(world.children);
    JsonNode failed = world.sync();
    JsonNode condition = condition(failed, "ConfigurationApplied");
    assertThat(condition.path("status").asText()).isEqualTo("False");
    assertThat(condition.path("reason").asText()).isEqualTo("JobFailed");
    assertThat(condition.path("message").asText())
        .contains(
            job.at("/metadata/name").asText(), "PATCH /config", "delete the Job to try again");
    assertThat(condition(failed, "Degraded").path("status").asText()).isEqualTo("False");
    assertThat(world.children.keySet()).isEqualTo(before.keySet());

    job.putObject("status")
        .put("succeeded", 1)
        .putArray("conditions")
        .addObject()
        .put("type", "Complete")
        .put("status", "True");
    assertThat(condition(world.sync(), "ConfigurationApplied").path("reason").asText())
        .isEqualTo("Applied");
  }

  /**
   * A reloadable setting is applied once the Job has read it back; one that needs a restart, or that Spilo pins
   * locally, once every pod was also started with it: until then the condition names the pods still to restart.
   */
  @Test
  void settingsThatNeedARestartAreAppliedOnlyOnceEveryPodStartedWithThem() {
    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 2));
    world.sync();
    world.runAllReady();
    startPodsFromTheTemplate(world);
    world.sync();
    complete(parametersJob(world));
    assertThat(condition(world.sync(), "ConfigurationApplied").path("reason").asText())
        .isEqualTo("Applied");

    for (Map.Entry<String, String> setting :
        Map.of("shared_buffers", "256MB", "log_filename", "pg-%a.log").entrySet()) {
      world
          .spec
          .withObjectProperty("postgresql")
          .withObjectProperty("parameters")
          .put(setting.getKey(), setting.getValue());
      world.sync();
      complete(parametersJob(world));
      JsonNode rolling = condition(world.sync(), "ConfigurationApplied");
      assertThat(rolling.path("status").asText()).as(setting.getKey()).isEqualTo("False");
      assertThat(rolling.path("reason").asText()).isEqualTo("RollingOut");
      assertThat(rolling.path("message").asText()).contains("orders-0, orders-1 must restart");

      startPodsFromTheTemplate(world);
      assertThat(condition(world.sync(), "ConfigurationApplied").path("reason").asText())
          .as(setting.getKey())
          .isEqualTo("Applied");
    }
  }

  /** Each pod as the StatefulSet controller starts it: with the template's spec. */
  private static void startPodsFromTheTemplate(ObservedRequests world) {
    world
        .pods
        .values()
        .forEach(pod -> pod.set("spec", world.statefulSet().at("/spec/template/spec").deepCopy()));
  }

  private static void complete(ObjectNode job) {
    job.putObject("status")
        .put("succeeded", 1)
        .putArray("conditions")
        .addObject()
        .put("type", "Complete")
        .put("status", "True");
  }

  static JsonNode condition(JsonNode answer, String type) {
    for (JsonNode condition : answer.at("/status/conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition;
      }
    }
    throw new AssertionError("no condition " + type);
  }

  private static ObjectNode parametersJob(ObservedRequests world) {
    return world.children.entrySet().stream()
        .filter(e -> e.getKey().startsWith("Job/orders-parameters-"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow();
  }

  private static JsonNode patch(ObservedRequests world) throws Exception {
    for (JsonNode env : parametersJob(world).at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals(ParameterJobs.PATCH_VARIABLE)) {
        return JsonTrees.MAPPER.readTree(env.path("value").asText());
      }
    }
    throw new AssertionError("no PATCH");
  }

  private static ObjectNode spiloVariable(ObservedRequests world) {
    for (JsonNode env : world.statefulSet().at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals("SPILO_CONFIGURATION")) {
        return (ObjectNode) env;
      }
    }
    throw new AssertionError("no SPILO_CONFIGURATION");
  }

  private static JsonNode spiloConfiguration(ObservedRequests world) throws Exception {
    return JsonTrees.MAPPER.readTree(spiloVariable(world).path("value").asText());
  }
}
