package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Objects of a real API server that change later by themselves, with nothing else happening meanwhile: work a
 * controller, the scheduler or a node has still to do. A scenario has not settled while one is there (besides those
 * {@link Cluster} already waits for), however long the server's controllers take on a busy machine.
 */
final class ChangesDue {
  /** KWOK's annotation that delays a Pod's readiness (controlplane/stages.yaml, pod-ready-after-delay). */
  static final String READINESS_DELAY = "pod-ready.stage.kwok.x-k8s.io/delay";

  private ChangesDue() {}

  static boolean any(JsonNode object) {
    return !Meta.deleting(object)
        && (jobDue(object)
            || podNotYetCounted(object)
            || delayedReadiness(object)
            || podToStart(object)
            || workloadCatchingUp(object));
  }

  /**
   * A Job not finished, not suspended, with no Pod running: the Job controller starts one (a new Job, or the next
   * after a failure's back-off: 10 s, doubled per failure, kubernetes v1.36.3,
   * pkg/controller/job/job_controller.go:77-79 and :1850-1857, backoff_utils.go:258-280
   * getRemainingTimeForFailuresCount), or marks the Job finished (manageJob, :1775).
   */
  static boolean jobDue(JsonNode object) {
    JsonNode status = object.path("status");
    return "batch/v1".equals(Meta.apiVersion(object))
        && "Job".equals(Meta.kind(object))
        && !object.path("spec").path("suspend").asBoolean(false)
        && status.path("active").asInt() == 0
        && !finished(status);
  }

  /**
   * A Job's Pod that has ended but still carries the Job controller's tracking finalizer: the controller has yet to
   * count it in the Job's status, then removes the finalizer (kubernetes v1.36.3, pkg/apis/batch/types.go:39
   * JobTrackingFinalizer; pkg/controller/job/job_controller.go:1331 trackJobStatusAndRemoveFinalizers).
   */
  static boolean podNotYetCounted(JsonNode object) {
    String phase = object.path("status").path("phase").asText();
    return "Pod".equals(Meta.kind(object))
        && (phase.equals("Succeeded") || phase.equals("Failed"))
        && Meta.finalizers(object).contains(JOB_TRACKING_FINALIZER);
  }

  private static final String JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";

  /** A Pod the node reports Ready only after a delay (its annotation), running and not Ready yet. */
  static boolean delayedReadiness(JsonNode object) {
    if (!"Pod".equals(Meta.kind(object))
        || !Meta.annotations(object).containsKey(READINESS_DELAY)
        || !"Running".equals(object.path("status").path("phase").asText())) {
      return false;
    }
    return !ready(object);
  }

  /**
   * A Pod still Pending that the scheduler has not refused, or refused only until its claims are bound ("pod has
   * unbound immediate PersistentVolumeClaims", pkg/scheduler/framework/plugins/volumebinding/volume_binding.go:378):
   * the scheduler places it, the node starts it.
   */
  static boolean podToStart(JsonNode object) {
    if (!"Pod".equals(Meta.kind(object))
        || !"Pending".equals(object.path("status").path("phase").asText("Pending"))) {
      return false;
    }
    for (JsonNode condition : object.path("status").path("conditions")) {
      if ("PodScheduled".equals(condition.path("type").asText())
          && "Unschedulable".equals(condition.path("reason").asText())) {
        return condition.path("message").asText().contains(UNBOUND_CLAIMS);
      }
    }
    return true;
  }

  /** The scheduler's reason for a Pod whose claims are not bound yet. */
  private static final String UNBOUND_CLAIMS = "unbound immediate PersistentVolumeClaims";

  /**
   * A StatefulSet, ReplicaSet or Deployment whose status has not caught up with its spec: the controller has not
   * seen the latest generation, or has Pods to make, remove or see ready (the StatefulSet's status,
   * pkg/controller/statefulset/stateful_set_control.go:560-580; a Deployment is done when its updated, current and
   * ready replicas are the spec's, pkg/controller/deployment/util/deployment_util.go:744 DeploymentComplete). A
   * StatefulSet under {@code RollingUpdate} without a partition is due until every Pod runs the update revision;
   * under {@code OnDelete} that waits for someone else.
   */
  static boolean workloadCatchingUp(JsonNode object) {
    String kind = Meta.kind(object);
    if (!"apps/v1".equals(Meta.apiVersion(object))
        || !(kind.equals("StatefulSet")
            || kind.equals("ReplicaSet")
            || kind.equals("Deployment"))) {
      return false;
    }
    JsonNode spec = object.path("spec");
    JsonNode status = object.path("status");
    long replicas = spec.path("replicas").asLong(1);
    if (status.path("observedGeneration").asLong()
            < object.path("metadata").path("generation").asLong()
        || status.path("replicas").asLong() != replicas
        || status.path("readyReplicas").asLong() != replicas) {
      return true;
    }
    if (kind.equals("Deployment")) {
      return status.path("updatedReplicas").asLong() != replicas;
    }
    JsonNode strategy = spec.path("updateStrategy");
    return kind.equals("StatefulSet")
        && strategy.path("type").asText("RollingUpdate").equals("RollingUpdate")
        && strategy.path("rollingUpdate").path("partition").asLong() == 0
        && !status.path("currentRevision").asText().equals(status.path("updateRevision").asText());
  }

  private static boolean ready(JsonNode pod) {
    for (JsonNode condition : pod.path("status").path("conditions")) {
      if ("Ready".equals(condition.path("type").asText())) {
        return "True".equals(condition.path("status").asText());
      }
    }
    return false;
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
