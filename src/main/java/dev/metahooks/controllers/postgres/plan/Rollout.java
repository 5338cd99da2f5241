package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.MaintenanceWindows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The partition-stepped rollout of {@code updates.method: switchover}: the StatefulSet updates only ordinals at or
 * above {@code rollingUpdate.partition}, and the hook lowers it one ordinal at a time (highest first), each once
 * every pod is Ready (Patroni's {@code /readiness}: running, and a replica streaming). Before the primary's
 * ordinal it asks for a switchover Job to a ready replica (an updated one when there is), and lowers the partition
 * past that ordinal only once the leader label has moved. Every decision reads observed state only (the
 * StatefulSet's spec and status revisions, the pods' {@code controller-revision-hash} and {@code spilo-role},
 * the Job's status), so a resync or a restarted hook continues where the rollout was.
 */
public final class Rollout {
  public static final String REVISION_LABEL = "controller-revision-hash";

  public enum Step {
    Settled, Starting, Waiting, Updating, Switchover, SwitchoverFailed, WaitingForWindow,
    /** A scale-down waits while the primary moves off an ordinal it removes ({@link ScaleDown}). */
    ScaleDownSwitchover
  }

  /**
   * A switchover this step needs: the Job {@code name} (named by the revision and the leader in a rollout), which
   * asks the leader's Patroni to hand over to the candidate.
   *
   * @param leaderHttps the TLS Secret whose CA the Job trusts when the leader serves its REST API over https (the
   *     leader still runs the old template while the rollout that turns {@code restApi} on or off reaches it, so its
   *     own pod decides)
   */
  public record Switchover(String name, String leader, String candidate, Optional<String> leaderHttps) {}

  /**
   * @param partition the StatefulSet's {@code rollingUpdate.partition}; empty under {@code updates.method: restart}
   * @param switchover the switchover this step needs, if any
   * @param waitingUntil when the maintenance window that this step waits for opens
   * @param heldReplicas the StatefulSet's replicas while a scale-down waits for the primary to move
   * @param waitingFor the replica this step waits for to catch up with the leader ({@link Streaming})
   */
  public record Plan(OptionalInt partition, Optional<Switchover> switchover, Step step, String message,
      Optional<Instant> waitingUntil, OptionalInt heldReplicas, Optional<Streaming.Lag> waitingFor) {
    public Plan(OptionalInt partition, Optional<Switchover> switchover, Step step, String message,
        Optional<Instant> waitingUntil, OptionalInt heldReplicas) {
      this(partition, switchover, step, message, waitingUntil, heldReplicas, Optional.empty());
    }

    public Plan(OptionalInt partition, Optional<Switchover> switchover, Step step, String message) {
      this(partition, switchover, step, message, Optional.empty());
    }

    public Plan(OptionalInt partition, Optional<Switchover> switchover, Step step, String message,
        Optional<Instant> waitingUntil) {
      this(partition, switchover, step, message, waitingUntil, OptionalInt.empty());
    }

    /** The StatefulSet's replicas: the spec's, unless a scale-down waits for the primary to move. */
    public int replicas(ClusterSpec spec) {
      return heldReplicas.orElse(spec.instances());
    }

    public static Plan settled(OptionalInt partition) {
      return new Plan(partition, Optional.empty(), Step.Settled, "every pod runs the StatefulSet's current template");
    }
  }

  private Rollout() {}

  public static Plan plan(String cluster, ClusterSpec spec, ObservedCluster observed, boolean templateChanging, Instant now) {
    if (!spec.updates().switchover()) {
      return Plan.settled(OptionalInt.empty());
    }
    int instances = spec.instances();
    Optional<ObjectNode> sts = observed.statefulSet();
    if (sts.isEmpty() || instances == 0) {
      return Plan.settled(OptionalInt.of(0));
    }
    if (templateChanging) {
      return hold(instances, Step.Starting, "a new pod template: no pod restarts before the hook lowers the partition");
    }
    JsonNode status = sts.get().path("status");
    int partition = sts.get().path("spec").path("updateStrategy").path("rollingUpdate").path("partition").asInt(0);
    String revision = status.path("updateRevision").asText("");
    if (revision.isEmpty() || status.path("observedGeneration").asLong(-1)
        < sts.get().path("metadata").path("generation").asLong(0)) {
      return hold(partition, Step.Waiting, "the StatefulSet controller has not observed the new template yet");
    }
    // The StatefulSet controller moves currentRevision once every pod is updated and ready: nothing to roll.
    if (revision.equals(status.path("currentRevision").asText())) {
      return Plan.settled(OptionalInt.of(0));
    }
    Map<Integer, ObjectNode> pods = podsByOrdinal(cluster, observed);
    int updatedFrom = instances;
    while (updatedFrom > 0 && pods.containsKey(updatedFrom - 1)
        && revision.equals(label(pods.get(updatedFrom - 1), REVISION_LABEL))) {
      updatedFrom--;
    }
    if (updatedFrom == 0) {
      return Plan.settled(OptionalInt.of(0));
    }
    List<String> notReady = new ArrayList<>();
    for (int ordinal = 0; ordinal < instances; ordinal++) {
      if (!pods.containsKey(ordinal) || !ObservedCluster.ready(pods.get(ordinal))) {
        notReady.add(cluster + "-" + ordinal);
      }
    }
    if (!notReady.isEmpty() || observed.allPods().size() != instances) {
      return hold(partition, Step.Waiting, "waiting for every pod to be ready"
          + (notReady.isEmpty() ? "" : " (" + String.join(", ", notReady) + ")") + " before the next step");
    }
    Optional<String> primary = observed.primary();
    if (primary.isEmpty()) {
      return hold(partition, Step.Waiting, "waiting for Patroni to elect a primary");
    }
    int next = updatedFrom - 1;
    String pod = cluster + "-" + next;
    // Each step, a restart or a new switchover Job, waits until every replica streams (a Job already there is
    // followed, below, whatever the replicas do).
    Optional<Streaming.Lag> lag = Streaming.firstBehind(pods.values(), observed.primaryPod().orElseThrow(),
        spec.updates().maxLagBytes());
    if (lag.isPresent() && !(pod.equals(primary.get()) && instances > 1
        && observed.job(Names.switchoverJob(cluster, revision, pod)).isPresent())) {
      return waitForStreaming(partition, lag.get());
    }
    if (pod.equals(primary.get()) && instances == 1 && !MaintenanceWindows.open(spec.updates().maintenanceWindows(), now)) {
      return waitForWindow(partition, "the restart of the primary " + pod + " (one instance, no replica to switch over to)",
          spec, now);
    }
    if (!pod.equals(primary.get()) || instances == 1) {
      return new Plan(OptionalInt.of(next), Optional.empty(), Step.Updating, "updating " + pod + " ("
          + (instances - updatedFrom) + " of " + instances + " updated)"
          + (pod.equals(primary.get()) ? "; a single instance restarts without a switchover" : ""));
    }
    return switchover(cluster, spec, observed, pods, revision, pod, updatedFrom, partition, now);
  }

  /** A disruptive step outside every maintenance window: the partition holds until the next one opens. */
  private static Plan waitForWindow(int partition, String what, ClusterSpec spec, Instant now) {
    Instant opens = MaintenanceWindows.nextOpening(spec.updates().maintenanceWindows(), now).orElseThrow();
    return new Plan(OptionalInt.of(partition), Optional.empty(), Step.WaitingForWindow,
        what + " waits for the maintenance window that opens at " + opens, Optional.of(opens));
  }

  /** The primary's ordinal is next: its switchover Job, observed or new, and what it says. */
  private static Plan switchover(String cluster, ClusterSpec spec, ObservedCluster observed,
      Map<Integer, ObjectNode> pods, String revision, String leader, int updatedFrom, int partition, Instant now) {
    String name = Names.switchoverJob(cluster, revision, leader);
    Optional<ObjectNode> existing = observed.job(name);
    if (existing.isPresent()) {
      JsonNode jobStatus = existing.get().path("status");
      // Rendered again with the candidate it was given: a Job's template cannot change.
      String candidate = candidateOf(existing.get());
      Optional<Switchover> job = Optional.of(new Switchover(name, leader, candidate, leaderHttps(pods, leader)));
      if (JobConditions.find(jobStatus, "Failed").isPresent()) {
        JsonNode failed = JobConditions.find(jobStatus, "Failed").get();
        return new Plan(OptionalInt.of(partition), job, Step.SwitchoverFailed, "Job " + name
            + " could not move the leader from " + leader + " to " + candidate + " (" + failed.path("reason").asText("Failed")
            + (failed.path("message").asText("").isEmpty() ? "" : ": " + failed.path("message").asText())
            + "); the rollout stops here: its pod's log has Patroni's answer; delete the Job to try again");
      }
      String state = JobConditions.find(jobStatus, "Complete").isPresent() ? "has completed; waiting for the leader label to move"
          : "is running";
      return new Plan(OptionalInt.of(partition), job, Step.Switchover,
          "Job " + name + " (switchover from " + leader + " to " + candidate + ") " + state);
    }
    Optional<String> candidate = candidate(pods, updatedFrom, leader, observed.syncStandbys());
    if (candidate.isEmpty()) {
      return hold(partition, Step.Waiting, observed.syncStandbys().isEmpty() ? "no ready replica to switch over to"
          : "no ready synchronous standby to switch over to (Patroni names " + String.join(", ", observed.syncStandbys())
              + ")");
    }
    // A Job already there is followed wherever the window is; a new one starts only inside a window.
    if (!MaintenanceWindows.open(spec.updates().maintenanceWindows(), now)) {
      return waitForWindow(partition, "the switchover from " + leader + " to " + candidate.get(), spec, now);
    }
    Switchover job = new Switchover(name, leader, candidate.get(), leaderHttps(pods, leader));
    return new Plan(OptionalInt.of(partition), Optional.of(job), Step.Switchover,
        "Job " + name + " (switchover from " + leader + " to " + candidate.get() + ") is starting");
  }

  /**
   * The lowest updated replica; without one (the primary has the highest ordinal), the lowest replica, which
   * then needs a switchover of its own when its ordinal comes. Under synchronous replication Patroni switches over
   * only to a synchronous standby (patroni/api.py, is_failover_possible), so the candidates are those it names.
   */
  private static Optional<String> candidate(Map<Integer, ObjectNode> pods, int updatedFrom, String leader,
      List<String> syncStandbys) {
    Predicate<ObjectNode> eligible = p -> !ObservedCluster.leader(p)
        && (syncStandbys.isEmpty() || syncStandbys.contains(ObservedCluster.nameOf(p)));
    Optional<ObjectNode> updated = pods.entrySet().stream().filter(e -> e.getKey() >= updatedFrom)
        .map(Map.Entry::getValue).filter(eligible).findFirst();
    return updated.or(() -> pods.values().stream().filter(eligible).findFirst())
        .map(ObservedCluster::nameOf).filter(name -> !name.equals(leader));
  }

  /** The TLS Secret of the leader's pod when it serves Patroni's REST API over https. */
  static Optional<String> leaderHttps(Map<Integer, ObjectNode> pods, String leader) {
    return pods.values().stream().filter(pod -> leader.equals(ObservedCluster.nameOf(pod))).findFirst()
        .flatMap(Tls::httpsSecret);
  }

  /** The candidate an observed switchover Job was rendered with. */
  static String candidateOf(JsonNode job) {
    return jobEnv(job, "CANDIDATE");
  }

  /** A value an observed switchover Job was rendered with ({@code LEADER}, {@code CANDIDATE}). */
  static String jobEnv(JsonNode job, String variable) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (variable.equals(env.path("name").asText())) {
        return env.path("value").asText();
      }
    }
    return "?";
  }

  /** A step held until a replica catches up; the status names it and its lag. */
  static Plan waitForStreaming(int partition, Streaming.Lag lag) {
    return new Plan(OptionalInt.of(partition), Optional.empty(), Step.Waiting, "waiting for " + lag.message()
        + " before the next step", Optional.empty(), OptionalInt.empty(), Optional.of(lag));
  }

  private static Plan hold(int partition, Step step, String message) {
    return new Plan(OptionalInt.of(partition), Optional.empty(), step, message);
  }

  /** The live pods named {@code <n>-<ordinal>}, by ordinal. */
  static Map<Integer, ObjectNode> podsByOrdinal(String cluster, ObservedCluster observed) {
    Map<Integer, ObjectNode> pods = new TreeMap<>();
    for (ObjectNode pod : observed.livePods()) {
      String name = ObservedCluster.nameOf(pod);
      String suffix = name.startsWith(cluster + "-") ? name.substring(cluster.length() + 1) : "";
      if (suffix.matches("0|[1-9][0-9]{0,2}")) {
        pods.put(Integer.parseInt(suffix), pod);
      }
    }
    return pods;
  }

  private static String label(JsonNode pod, String label) {
    return pod.path("metadata").path("labels").path(label).asText("");
  }

}
