package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Objects of a real API server that change later by themselves, with nothing else happening meanwhile: a scenario
 * has not settled while one is there (besides those {@link Cluster} already waits for).
 */
final class ChangesDue {
  /** KWOK's annotation that delays a Pod's readiness (controlplane/stages.yaml, pod-ready-after-delay). */
  static final String READINESS_DELAY = "pod-ready.stage.kwok.x-k8s.io/delay";

  private ChangesDue() {}

  static boolean any(JsonNode object) {
    return jobRetry(object) || delayedReadiness(object);
  }

  /**
   * A Job whose Pods failed, none running, not finished: the Job controller starts the next Pod after its back-off
   * (10 s, doubled per failure: kubernetes v1.36.3, pkg/controller/job/job_controller.go:77-79 and :1850-1857,
   * backoff_utils.go:258-280 getRemainingTimeForFailuresCount), or marks the Job failed at once.
   */
  static boolean jobRetry(JsonNode object) {
    JsonNode status = object.path("status");
    return "batch/v1".equals(Meta.apiVersion(object))
        && "Job".equals(Meta.kind(object))
        && !Meta.deleting(object)
        && !object.path("spec").path("suspend").asBoolean(false)
        && status.path("failed").asInt() > 0
        && status.path("active").asInt() == 0
        && !finished(status);
  }

  /** A Pod the node reports Ready only after a delay (its annotation), running and not Ready yet. */
  static boolean delayedReadiness(JsonNode object) {
    if (!"Pod".equals(Meta.kind(object))
        || Meta.deleting(object)
        || !Meta.annotations(object).containsKey(READINESS_DELAY)
        || !"Running".equals(object.path("status").path("phase").asText())) {
      return false;
    }
    for (JsonNode condition : object.path("status").path("conditions")) {
      if ("Ready".equals(condition.path("type").asText())) {
        return !"True".equals(condition.path("status").asText());
      }
    }
    return true;
  }

  private static boolean finished(JsonNode jobStatus) {
    for (JsonNode condition : jobStatus.path("conditions")) {
      String type = condition.path("type").asText();
      if ("True".equals(condition.path("status").asText())
          && (type.equals("Complete")
              || type.equals("Failed")
              || type.equals("FailureTarget")
              || type.equals("SuccessCriteriaMet"))) {
        return true;
      }
    }
    return false;
  }
}
