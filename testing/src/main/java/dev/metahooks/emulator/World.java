package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * What the rest of Kubernetes would do between two syncs, as status writes: the kubelet moves Pods through
 * their states by a {@link PodPolicy}; the workload controllers report ReplicaSet, Deployment, StatefulSet,
 * DaemonSet and Job status derived from their spec (they do not create Pods, except StatefulSets when
 * {@link #statefulSetPods} is on); PersistentVolumeClaims become Bound.
 * Tests can change the policies or add their own simulations.
 *
 * <p>On a real API server ({@link Cluster#onServer}) the kubelet and the workload controllers are real (KWOK's nodes,
 * the controller manager, the scheduler): a step waits until they have done their part ({@link Cluster#settle}),
 * then a Pod policy a test chose is written over what the node reported (Running, Ready, Succeeded, Failed: a Pod
 * the node started cannot be Pending again), then the test's own simulations run, writing to the server. What the
 * real cluster cannot be told ({@link #none}, {@link #workloadsReady} false, another node count) ends the test as
 * aborted, with the reason.
 */
public final class World {
  /** One simulated actor; it changes the cluster only through its methods. */
  @FunctionalInterface
  public interface Simulation {
    void step(Cluster cluster);
  }

  private PodPolicy pods = PodPolicy.ready();

  /** Whether a test chose the policy (on a real server only a chosen one is written over the node's report). */
  private boolean podsChosen;

  private int nodes = 1;
  private boolean workloadsReady = true;
  private boolean statefulSetPods;
  private boolean builtIns = true;
  private final Map<String, Simulation> simulations = new LinkedHashMap<>();

  /** Uids of Pods the kubelet has seen Terminating; it removes them on its next step. */
  private final Set<String> terminating = new HashSet<>();

  /** Pods become Running and Ready, workloads fully ready, on a one-node cluster. */
  public static World standard() {
    return new World();
  }

  /** Nothing happens by itself: no kubelet, no workload controllers (custom simulations still run). */
  public static World none() {
    World world = new World();
    world.builtIns = false;
    return world;
  }

  public World pods(PodPolicy policy) {
    this.pods = policy;
    this.podsChosen = true;
    return this;
  }

  /** The node count DaemonSets schedule on (1 by default). */
  public World nodes(int count) {
    this.nodes = count;
    return this;
  }

  /** Whether ReplicaSets, Deployments, StatefulSets, DaemonSets and Jobs report their Pods ready (true by default). */
  public World workloadsReady(boolean ready) {
    this.workloadsReady = ready;
    return this;
  }

  /**
   * Whether StatefulSets run real Pods (false by default): they create and delete Pods and claims and roll
   * out template changes, the kubelet's policy decides those Pods' states, and the StatefulSet status is
   * counted from them (see {@link StatefulSetPods}). Otherwise a StatefulSet's status follows its spec alone.
   */
  public World statefulSetPods(boolean run) {
    this.statefulSetPods = run;
    return this;
  }

  /** Adds a simulation that runs after the built-in ones, under a name that its writes carry. */
  public World add(String name, Simulation simulation) {
    simulations.put(name, simulation);
    return this;
  }

  /** One step of the world. */
  public void step(Cluster cluster) {
    if (cluster.isOnServer()) {
      stepOnServer(cluster);
      return;
    }
    if (builtIns) {
      cluster.as("world/kubelet", () -> kubelet(cluster));
      cluster.as("world/workload-controllers", () -> workloads(cluster));
    }
    simulations.forEach(
        (name, simulation) -> cluster.as("world/" + name, () -> simulation.step(cluster)));
  }

  // ---- on a real API server

  private void stepOnServer(Cluster cluster) {
    if (!builtIns || !workloadsReady || nodes != 1) {
      Assumptions.abort(
          "a real API server's nodes and workload controllers cannot be told "
              + (!builtIns
                  ? "to do nothing (World.none())"
                  : !workloadsReady
                      ? "to report workloads not ready"
                      : "to have " + nodes + " nodes")
              + "; this scenario runs on the in-memory store only");
    }
    cluster.settle(ServerTiming.stepQuiet(), ServerTiming.stepAtMost());
    if (podsChosen) {
      cluster.as("world/kubelet", () -> podPolicyOverNodes(cluster));
    }
    simulations.forEach(
        (name, simulation) -> cluster.as("world/" + name, () -> simulation.step(cluster)));
  }

  /**
   * The chosen policy written over what the node (KWOK) reported, for Pods it started: KWOK starts every scheduled
   * Pending Pod at once and leaves a Running or finished one alone, so Pending is not kept and the rest holds.
   */
  private void podPolicyOverNodes(Cluster cluster) {
    for (ObjectNode pod : cluster.list("v1", "Pod")) {
      PodState current = stateOf(pod.path("status"));
      if (Meta.deleting(pod)
          || current == null
          || current == PodState.PENDING
          || current == PodState.SUCCEEDED
          || current == PodState.FAILED) {
        continue;
      }
      PodState wanted = pods.state(pod);
      if (wanted == null || wanted == current || wanted == PodState.PENDING) {
        continue;
      }
      ObjectNode status = podStatus(pod, wanted, cluster);
      for (String assigned :
          List.of("podIP", "podIPs", "hostIP", "hostIPs", "qosClass", "startTime")) {
        JsonNode value = pod.path("status").get(assigned);
        if (value != null) {
          status.set(assigned, value.deepCopy());
        }
      }
      pod.set("status", status);
      try {
        cluster.updateStatus(pod);
      } catch (ApiException e) {
        if (!e.is(ApiException.Reason.CONFLICT) && !e.is(ApiException.Reason.NOT_FOUND)) {
          throw e;
        }
      }
    }
  }

  // ---- kubelet

  private void kubelet(Cluster cluster) {
    for (ObjectNode pod : cluster.list("v1", "Pod")) {
      PodState current = stateOf(pod.path("status"));
      if (Meta.deleting(pod) && Meta.finalizers(pod).isEmpty()) {
        // Its containers stop within the grace period: the kubelet sees it Terminating on one step
        // and deletes
        // it for good on the next, so every controller syncs once with the Terminating Pod in view.
        if (terminating.add(Meta.uid(pod))) {
          pod.set("status", stopped(pod));
          cluster.updateStatus(pod);
        } else {
          terminating.remove(Meta.uid(pod));
          cluster.finishTermination(pod);
        }
        continue;
      }
      if (Meta.deleting(pod) || current == PodState.SUCCEEDED || current == PodState.FAILED) {
        continue;
      }
      PodState wanted = pods.state(pod);
      if (wanted != null && wanted != current) {
        pod.set("status", podStatus(pod, wanted, cluster));
        cluster.updateStatus(pod);
      }
    }
  }

  /** The status the kubelet reports once a deleted Pod's containers stopped: not ready, containers terminated. */
  private static ObjectNode stopped(ObjectNode pod) {
    ObjectNode status =
        pod.path("status").isObject() ? Trees.copy((ObjectNode) pod.get("status")) : Trees.object();
    ArrayNode conditions = status.putArray("conditions");
    condition(conditions, "Ready", false, "PodCompleted");
    condition(conditions, "ContainersReady", false, "PodCompleted");
    ArrayNode containers = status.putArray("containerStatuses");
    for (JsonNode container : pod.path("spec").path("containers")) {
      containers
          .addObject()
          .put("name", container.path("name").asText())
          .put("ready", false)
          .putObject("state")
          .putObject("terminated")
          .put("exitCode", 0)
          .put("reason", "Completed");
    }
    return status;
  }

  static PodState stateOf(JsonNode status) {
    return switch (status.path("phase").asText("")) {
      case "Pending" -> PodState.PENDING;
      case "Running" -> conditionTrue(status, "Ready") ? PodState.READY : PodState.RUNNING;
      case "Succeeded" -> PodState.SUCCEEDED;
      case "Failed" -> PodState.FAILED;
      default -> null;
    };
  }

  private static boolean conditionTrue(JsonNode status, String type) {
    for (JsonNode condition : status.path("conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition.path("status").asText().equals("True");
      }
    }
    return false;
  }

  private static ObjectNode podStatus(ObjectNode pod, PodState state, Cluster cluster) {
    String now = DateTimeFormatter.ISO_INSTANT.format(cluster.now());
    ObjectNode status = Trees.object();
    status.put(
        "phase",
        switch (state) {
          case PENDING -> "Pending";
          case RUNNING, READY -> "Running";
          case SUCCEEDED -> "Succeeded";
          case FAILED -> "Failed";
        });
    ArrayNode conditions = status.putArray("conditions");
    boolean started = state != PodState.PENDING;
    boolean ready = state == PodState.READY;
    String notReadyReason =
        state == PodState.SUCCEEDED
            ? "PodCompleted"
            : state == PodState.FAILED ? "PodFailed" : "ContainersNotReady";
    if (started) {
      condition(conditions, "Initialized", true, null);
      condition(conditions, "Ready", ready, ready ? null : notReadyReason);
      condition(conditions, "ContainersReady", ready, ready ? null : notReadyReason);
    }
    condition(conditions, "PodScheduled", true, null);
    if (!started) {
      return status;
    }
    String startTime = pod.path("status").path("startTime").asText(now);
    status.put("startTime", startTime);
    ArrayNode containers = status.putArray("containerStatuses");
    for (JsonNode container : pod.path("spec").path("containers")) {
      ObjectNode containerStatus = containers.addObject();
      containerStatus.put("name", container.path("name").asText());
      containerStatus.put("image", container.path("image").asText());
      containerStatus.put("ready", ready);
      containerStatus.put("restartCount", 0);
      boolean finished = state == PodState.SUCCEEDED || state == PodState.FAILED;
      containerStatus.put("started", !finished);
      ObjectNode containerState = containerStatus.putObject("state");
      if (finished) {
        ObjectNode terminated = containerState.putObject("terminated");
        terminated.put("exitCode", state == PodState.SUCCEEDED ? 0 : 1);
        terminated.put("reason", state == PodState.SUCCEEDED ? "Completed" : "Error");
        terminated.put("startedAt", startTime);
        terminated.put("finishedAt", now);
      } else {
        containerState.putObject("running").put("startedAt", startTime);
      }
    }
    return status;
  }

  private static void condition(ArrayNode conditions, String type, boolean status, String reason) {
    ObjectNode condition = conditions.addObject();
    condition.put("type", type);
    condition.put("status", status ? "True" : "False");
    if (reason != null) {
      condition.put("reason", reason);
    }
  }

  // ---- workload controllers

  private void workloads(Cluster cluster) {
    for (ObjectNode deployment : cluster.list("apps/v1", "Deployment")) {
      long replicas = replicas(deployment);
      long ready = workloadsReady ? replicas : 0;
      ObjectNode status = observed(deployment);
      putIfNonZero(status, "replicas", replicas);
      putIfNonZero(status, "updatedReplicas", replicas);
      putIfNonZero(status, "readyReplicas", ready);
      putIfNonZero(status, "availableReplicas", ready);
      putIfNonZero(status, "unavailableReplicas", replicas - ready);
      write(cluster, deployment, status);
    }
    for (ObjectNode replicaSet : cluster.list("apps/v1", "ReplicaSet")) {
      long replicas = replicas(replicaSet);
      long ready = workloadsReady ? replicas : 0;
      ObjectNode status = observed(replicaSet);
      status.put("replicas", replicas);
      putIfNonZero(status, "fullyLabeledReplicas", replicas);
      putIfNonZero(status, "readyReplicas", ready);
      putIfNonZero(status, "availableReplicas", ready);
      write(cluster, replicaSet, status);
    }
    if (statefulSetPods) {
      StatefulSetPods.step(cluster);
    }
    for (ObjectNode statefulSet :
        statefulSetPods ? List.<ObjectNode>of() : cluster.list("apps/v1", "StatefulSet")) {
      long replicas = replicas(statefulSet);
      long ready = workloadsReady ? replicas : 0;
      ObjectNode status = observed(statefulSet);
      status.put("replicas", replicas);
      putIfNonZero(status, "readyReplicas", ready);
      putIfNonZero(status, "currentReplicas", replicas);
      putIfNonZero(status, "updatedReplicas", replicas);
      status.put("availableReplicas", ready);
      String revision =
          Meta.name(statefulSet) + "-" + hash(statefulSet.path("spec").path("template"));
      status.put("currentRevision", revision);
      status.put("updateRevision", revision);
      status.put("collisionCount", 0);
      write(cluster, statefulSet, status);
    }
    for (ObjectNode daemonSet : cluster.list("apps/v1", "DaemonSet")) {
      long ready = workloadsReady ? nodes : 0;
      ObjectNode status = observed(daemonSet);
      status.put("currentNumberScheduled", nodes);
      status.put("numberMisscheduled", 0);
      status.put("desiredNumberScheduled", nodes);
      status.put("numberReady", ready);
      putIfNonZero(status, "updatedNumberScheduled", nodes);
      putIfNonZero(status, "numberAvailable", ready);
      putIfNonZero(status, "numberUnavailable", nodes - ready);
      write(cluster, daemonSet, status);
    }
    for (ObjectNode job : cluster.list("batch/v1", "Job")) {
      // A finished Job stays finished, complete or failed.
      if (Meta.deleting(job)
          || conditionTrue(job.path("status"), "Complete")
          || conditionTrue(job.path("status"), "Failed")) {
        continue;
      }
      ObjectNode status = Trees.object();
      String now = DateTimeFormatter.ISO_INSTANT.format(cluster.now());
      status.put("startTime", job.path("status").path("startTime").asText(now));
      if (workloadsReady) {
        status.put("succeeded", job.path("spec").path("completions").asLong(1));
        status.put("completionTime", now);
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "SuccessCriteriaMet").put("status", "True");
        conditions.addObject().put("type", "Complete").put("status", "True");
      } else {
        status.put("active", job.path("spec").path("parallelism").asLong(1));
      }
      write(cluster, job, status);
    }
    for (ObjectNode claim : cluster.list("v1", "PersistentVolumeClaim")) {
      ObjectNode status = Trees.object().put("phase", "Bound");
      if (claim.path("spec").has("resources")) {
        status.set("capacity", claim.path("spec").path("resources").path("requests").deepCopy());
      }
      List<String> modes = new ArrayList<>();
      claim.path("spec").path("accessModes").forEach(m -> modes.add(m.asText()));
      if (!modes.isEmpty()) {
        ArrayNode accessModes = status.putArray("accessModes");
        modes.forEach(accessModes::add);
      }
      write(cluster, claim, status);
    }
  }

  private static long replicas(ObjectNode workload) {
    JsonNode replicas = workload.path("spec").path("replicas");
    return replicas.isNumber() ? replicas.asLong() : 1;
  }

  private static ObjectNode observed(ObjectNode workload) {
    return Trees.object().put("observedGeneration", Meta.generation(workload));
  }

  private static void putIfNonZero(ObjectNode status, String field, long value) {
    if (value != 0) {
      status.put(field, value);
    }
  }

  private static void write(Cluster cluster, ObjectNode object, ObjectNode status) {
    if (Meta.deleting(object) || Trees.same(object.get("status"), status)) {
      return;
    }
    object.set("status", status);
    cluster.updateStatus(object);
  }

  static String hash(JsonNode node) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1")
              .digest(Trees.canonical(node).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
