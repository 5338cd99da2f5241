package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import java.util.List;

/**
 * A run-once Pod's containers ending with an exit code, written as the kubelet writes it: phase {@code Succeeded}
 * for 0 and {@code Failed} otherwise (restartPolicy Never), each container terminated, the Pod no longer Ready. The
 * containers end as they started (the node's time, which the Job controller's back-off counts from: kubernetes
 * v1.36.3, pkg/controller/job/backoff_utils.go:174-222 getFinishedTime).
 */
final class ContainerExit {
  private ContainerExit() {}

  /** The running Pods of this Job (those its controller made: the owner reference names the Job's uid). */
  static List<ObjectNode> runningPods(Cluster cluster, JsonNode job) {
    String uid = job.path("metadata").path("uid").asText();
    return cluster.list("v1", "Pod", job.path("metadata").path("namespace").asText()).stream()
        .filter(pod -> !pod.path("metadata").has("deletionTimestamp"))
        .filter(pod -> "Running".equals(pod.path("status").path("phase").asText()))
        .filter(
            pod -> {
              for (JsonNode owner : pod.path("metadata").path("ownerReferences")) {
                if (uid.equals(owner.path("uid").asText())) {
                  return true;
                }
              }
              return false;
            })
        .toList();
  }

  static void write(Cluster cluster, ObjectNode pod, int exitCode) {
    ObjectNode status = pod.withObjectProperty("status");
    String podStarted = status.path("startTime").asText();
    for (JsonNode container : status.path("containerStatuses")) {
      String started = container.at("/state/running/startedAt").asText(podStarted);
      ObjectNode ended = (ObjectNode) container;
      ended.put("ready", false).put("started", false);
      ended
          .putObject("state")
          .putObject("terminated")
          .put("exitCode", exitCode)
          .put("reason", exitCode == 0 ? "Completed" : "Error")
          .put("startedAt", started)
          .put("finishedAt", started);
    }
    for (JsonNode condition : status.path("conditions")) {
      String type = condition.path("type").asText();
      if (type.equals("Ready") || type.equals("ContainersReady")) {
        ((ObjectNode) condition)
            .put("status", "False")
            .put("reason", "PodCompleted")
            .put("lastTransitionTime", podStarted);
      }
    }
    status.put("phase", exitCode == 0 ? "Succeeded" : "Failed");
    cluster.updateStatus(pod);
  }
}
