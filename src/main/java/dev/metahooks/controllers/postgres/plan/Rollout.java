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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The rollout of {@code updates.method: switchover}, one pod at a time in the order the hook chooses: the
 * StatefulSet runs {@code updateStrategy: OnDelete}, so its controller starts a pod from the new template only once
 * the pod is deleted, and the hook asks for each deletion with a restart Job ({@link Restart}). The replicas go
 * first, highest ordinal first, each once every pod is Ready and every replica streams within
 * {@code updates.maxLagBytes} ({@link Streaming}); when only the primary runs the old template, a switchover Job
 * hands the leader to an updated, streaming replica, and the old primary restarts last, as a replica. So a rollout
 * makes one planned leader change, wherever the leader runs (a partition, which updates the highest ordinals first,
 * made two when the leader ran on the highest: a first switchover to a replica that still ran the old template).
 * Every decision reads observed state only (the StatefulSet's {@code updateRevision} and generation, the pods'
 * {@code controller-revision-hash}, {@code spilo-role} and uid, the Jobs' status), so a resync or a restarted hook
 * continues where the rollout was. Under {@code OnDelete} Kubernetes never moves {@code currentRevision}
 * (stateful_set_control.go, completeRollingUpdate: RollingUpdate only), so only the pods' labels tell what is
 * updated.
 */
public final class Rollout {
  public enum Step {
    Settled,
    Starting,
    Waiting,
    Updating,
    Switchover,
    SwitchoverFailed,
    RestartFailed,
    WaitingForWindow,
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
  public record Switchover(
      String name, String leader, String candidate, Optional<String> leaderHttps) {}

  /**
   * A restart this step needs: the Job {@code job} (named by the revision and the pod) deletes {@code pod}, the one
   * with {@code uid}, and the StatefulSet controller starts it again from the current template. The Job's container
   * carries both as the variables {@link #POD} and {@link #UID}.
   */
  public record Restart(String job, String pod, String uid) {
    public static final String POD = "POD";
    public static final String UID = "POD_UID";
  }

  /**
   * What a step waits for, besides the pods: a maintenance window to open, or a replica to catch up with the
   * leader ({@link Streaming}).
   *
   * @param windowOpens when the maintenance window that the step waits for opens
   * @param replica the replica the step waits for, with its lag
   */
  public record Wait(Optional<Instant> windowOpens, Optional<Streaming.Lag> replica) {
    public static Wait none() {
      return new Wait(Optional.empty(), Optional.empty());
    }

    public static Wait forWindow(Instant opens) {
      return new Wait(Optional.of(opens), Optional.empty());
    }

    public static Wait forReplica(Streaming.Lag lag) {
      return new Wait(Optional.empty(), Optional.of(lag));
    }
  }

  /**
   * @param restart the restart this step needs, if any
   * @param switchover the switchover this step needs, if any
   * @param waitingFor what this step waits for
   * @param heldReplicas the StatefulSet's replicas while a scale-down waits for the primary to move
   */
  public record Plan(
      Optional<Restart> restart,
      Optional<Switchover> switchover,
      Step step,
      String message,
      Wait waitingFor,
      OptionalInt heldReplicas) {
    public Plan(Optional<Switchover> switchover, Step step, String message) {
      this(Optional.empty(), switchover, step, message, Wait.none(), OptionalInt.empty());
    }

    /** The StatefulSet's replicas: the spec's, unless a scale-down waits for the primary to move. */
    public int replicas(ClusterSpec spec) {
      return heldReplicas.orElse(spec.instances());
    }

    public static Plan settled() {
      return new Plan(
          Optional.empty(), Step.Settled, "every pod runs the StatefulSet's current template");
    }
  }

  private Rollout() {}

  /** {@code switchoverOnRequest}: the Job of a switchover on request that runs, if one does. */
  public static Plan plan(
      String cluster,
      ClusterSpec spec,
      ObservedCluster observed,
      boolean templateChanging,
      Optional<String> switchoverOnRequest,
      Instant now) {
    if (!spec.updates().switchover()) {
      return Plan.settled();
    }
    int instances = spec.instances();
    if (observed.statefulSet().isEmpty() || instances == 0) {
      return Plan.settled();
    }
    if (templateChanging) {
      return hold(
          Step.Starting,
          "a new pod template: no pod restarts before the hook asks for it, one at a time");
    }
    Optional<String> updateRevision = observed.updateRevision();
    if (updateRevision.isEmpty()) {
      return hold(Step.Waiting, "the StatefulSet controller has not observed the new template yet");
    }
    String revision = updateRevision.get();
    Map<Integer, ObjectNode> pods = podsByOrdinal(cluster, observed);
    // Highest ordinal first; a missing pod is started from the current template by the StatefulSet
    // controller.
    List<Integer> outdated =
        pods.keySet().stream()
            .filter(ordinal -> ordinal < instances)
            .filter(ordinal -> !ObservedCluster.fromRevision(pods.get(ordinal), revision))
            .sorted(Comparator.reverseOrder())
            .toList();
    int updated = instances - outdated.size();
    // A restart Job of this revision stays until its pod is back, ready, from the current template.
    for (int ordinal = 0; ordinal < instances; ordinal++) {
      String pod = cluster + "-" + ordinal;
      ObjectNode live = pods.get(ordinal);
      boolean back =
          live != null
              && ObservedCluster.ready(live)
              && ObservedCluster.fromRevision(live, revision);
      if (!back && observed.job(Names.restartJob(cluster, revision, pod)).isPresent()) {
        return restart(cluster, observed, revision, pod, "", updated, instances, "");
      }
    }
    if (outdated.isEmpty()) {
      return Plan.settled();
    }
    // A switchover Job of this revision that has not completed is followed whatever the pods'
    // readiness: left out
    // of the answer, it would be deleted while Patroni switches over, or (failed) started again
    // without a person.
    for (ObjectNode pod : pods.values()) {
      String member = Names.of(pod);
      Optional<ObjectNode> job = observed.job(Names.switchoverJob(cluster, revision, member));
      if (job.isPresent() && JobConditions.find(job.get().path("status"), "Complete").isEmpty()) {
        return switchover(cluster, spec, observed, pods, revision, member, now);
      }
    }
    List<String> notReady = new ArrayList<>();
    for (int ordinal = 0; ordinal < instances; ordinal++) {
      if (!pods.containsKey(ordinal) || !ObservedCluster.ready(pods.get(ordinal))) {
        notReady.add(cluster + "-" + ordinal);
      }
    }
    if (!notReady.isEmpty() || observed.allPods().size() != instances) {
      return hold(
          Step.Waiting,
          "waiting for every pod to be ready"
              + (notReady.isEmpty() ? "" : " (" + String.join(", ", notReady) + ")")
              + " before the next step");
    }
    Optional<String> primary = observed.primary();
    if (primary.isEmpty()) {
      return hold(Step.Waiting, "waiting for Patroni to elect a primary");
    }
    String leader = primary.get();
    Optional<Integer> replica =
        outdated.stream()
            .filter(ordinal -> !leader.equals(Names.of(pods.get(ordinal))))
            .findFirst();
    // Each step, a restart or a new switchover Job, waits until every replica streams (a switchover
    // Job already
    // there is followed, below, whatever the replicas do).
    Optional<Streaming.Lag> lag =
        Streaming.firstBehind(
            pods.values(), observed.primaryPod().orElseThrow(), spec.updates().maxLagBytes());
    boolean switchoverUnderWay =
        replica.isEmpty()
            && instances > 1
            && observed.job(Names.switchoverJob(cluster, revision, leader)).isPresent();
    if (lag.isPresent() && !switchoverUnderWay) {
      return waitForStreaming(lag.get());
    }
    if (switchoverOnRequest.isPresent() && !switchoverUnderWay) {
      return hold(
          Step.Waiting,
          "waiting for the switchover asked for (Job "
              + switchoverOnRequest.get()
              + ") to end before the next step");
    }
    if (replica.isPresent()) {
      return restart(cluster, observed, revision, pods.get(replica.get()), updated, instances, "");
    }
    if (instances == 1) {
      if (!MaintenanceWindows.open(spec.updates().maintenanceWindows(), now)) {
        return waitForWindow(
            "the restart of the primary "
                + leader
                + " (one instance, no replica to switch over to)",
            spec,
            now);
      }
      return restart(
          cluster,
          observed,
          revision,
          pods.get(outdated.get(0)),
          updated,
          instances,
          "; a single instance restarts without a switchover");
    }
    return switchover(cluster, spec, observed, pods, revision, leader, now);
  }

  /** Restarting one pod: its restart Job, new, and what it says. */
  private static Plan restart(
      String cluster,
      ObservedCluster observed,
      String revision,
      ObjectNode pod,
      int updated,
      int instances,
      String note) {
    return restart(
        cluster,
        observed,
        revision,
        Names.of(pod),
        pod.path("metadata").path("uid").asText(),
        updated,
        instances,
        note);
  }

  /** Restarting one pod: its restart Job, observed (rendered again with the uid it was given) or new with {@code uid}. */
  private static Plan restart(
      String cluster,
      ObservedCluster observed,
      String revision,
      String pod,
      String uid,
      int updated,
      int instances,
      String note) {
    String name = Names.restartJob(cluster, revision, pod);
    Optional<ObjectNode> existing = observed.job(name);
    // A Job's template cannot change.
    Restart restart = new Restart(name, pod, existing.map(Rollout::restartUid).orElse(uid));
    String progress =
        "restarting "
            + pod
            + " ("
            + updated
            + " of "
            + instances
            + " updated)"
            + note
            + ": Job "
            + name;
    if (existing.isEmpty()) {
      return restarting(restart, Step.Updating, progress + " is starting");
    }
    Optional<JsonNode> failed = JobConditions.find(existing.get().path("status"), "Failed");
    if (failed.isPresent()) {
      return restarting(
          restart,
          Step.RestartFailed,
          "Job "
              + name
              + " could not delete the pod "
              + pod
              + " ("
              + failed.get().path("reason").asText("Failed")
              + "); the rollout stops here: its pod's log has the API "
              + "server's answer; delete the Job to try again");
    }
    return restarting(
        restart,
        Step.Updating,
        progress
            + (JobConditions.find(existing.get().path("status"), "Complete").isPresent()
                ? " has deleted it; waiting for it to start again from the current template"
                : " is running"));
  }

  private static Plan restarting(Restart restart, Step step, String message) {
    return new Plan(
        Optional.of(restart), Optional.empty(), step, message, Wait.none(), OptionalInt.empty());
  }

  /** The uid an observed restart Job was rendered with. */
  static String restartUid(JsonNode job) {
    return jobEnv(job, Restart.UID);
  }

  /** A disruptive step outside every maintenance window: it waits until the next one opens. */
  private static Plan waitForWindow(String what, ClusterSpec spec, Instant now) {
    Instant opens =
        MaintenanceWindows.nextOpening(spec.updates().maintenanceWindows(), now).orElseThrow();
    return new Plan(
        Optional.empty(),
        Optional.empty(),
        Step.WaitingForWindow,
        what + " waits for the maintenance window that opens at " + opens,
        Wait.forWindow(opens),
        OptionalInt.empty());
  }

  /** Only the primary runs the old template: its switchover Job, observed or new, and what it says. */
  private static Plan switchover(
      String cluster,
      ClusterSpec spec,
      ObservedCluster observed,
      Map<Integer, ObjectNode> pods,
      String revision,
      String leader,
      Instant now) {
    String name = Names.switchoverJob(cluster, revision, leader);
    Optional<ObjectNode> existing = observed.job(name);
    if (existing.isPresent()) {
      JsonNode jobStatus = existing.get().path("status");
      // Rendered again with the candidate it was given: a Job's template cannot change.
      String candidate = candidateOf(existing.get());
      Optional<Switchover> job =
          Optional.of(new Switchover(name, leader, candidate, leaderHttps(pods, leader)));
      if (JobConditions.find(jobStatus, "Failed").isPresent()) {
        JsonNode failed = JobConditions.find(jobStatus, "Failed").get();
        return new Plan(
            job,
            Step.SwitchoverFailed,
            "Job "
                + name
                + " could not move the leader from "
                + leader
                + " to "
                + candidate
                + " ("
                + failed.path("reason").asText("Failed")
                + (failed.path("message").asText("").isEmpty()
                    ? ""
                    : ": " + failed.path("message").asText())
                + "); the rollout stops here: its pod's log has Patroni's answer; delete the Job to try again");
      }
      String state =
          JobConditions.find(jobStatus, "Complete").isPresent()
              ? "has completed; waiting for the leader label to move"
              : "is running";
      return new Plan(
          job,
          Step.Switchover,
          "Job " + name + " (switchover from " + leader + " to " + candidate + ") " + state);
    }
    Optional<String> candidate = candidate(pods, revision, observed.syncStandbys());
    if (candidate.isEmpty()) {
      return hold(
          Step.Waiting,
          observed.syncStandbys().isEmpty()
              ? "no ready updated replica to switch over to"
              : "no ready updated synchronous standby to switch over to (Patroni names "
                  + String.join(", ", observed.syncStandbys())
                  + ")");
    }
    // A Job already there is followed wherever the window is; a new one starts only inside a
    // window.
    if (!MaintenanceWindows.open(spec.updates().maintenanceWindows(), now)) {
      return waitForWindow("the switchover from " + leader + " to " + candidate.get(), spec, now);
    }
    Switchover job = new Switchover(name, leader, candidate.get(), leaderHttps(pods, leader));
    return new Plan(
        Optional.of(job),
        Step.Switchover,
        "Job " + name + " (switchover from " + leader + " to " + candidate.get() + ") is starting");
  }

  /**
   * The lowest replica that runs the current template: every replica does by now, and each one streams (checked
   * before). Under synchronous replication Patroni switches over only to a synchronous standby (patroni/api.py,
   * is_failover_possible), so the candidates are those it names.
   */
  private static Optional<String> candidate(
      Map<Integer, ObjectNode> pods, String revision, List<String> syncStandbys) {
    return pods.values().stream()
        .filter(pod -> !ObservedCluster.leader(pod))
        .filter(pod -> ObservedCluster.fromRevision(pod, revision))
        .filter(pod -> syncStandbys.isEmpty() || syncStandbys.contains(Names.of(pod)))
        .map(Names::of)
        .findFirst();
  }

  /** The TLS Secret of the leader's pod when it serves Patroni's REST API over https. */
  static Optional<String> leaderHttps(Map<Integer, ObjectNode> pods, String leader) {
    return pods.values().stream()
        .filter(pod -> leader.equals(Names.of(pod)))
        .findFirst()
        .flatMap(Tls::httpsSecret);
  }

  /** The candidate an observed switchover Job was rendered with. */
  static String candidateOf(JsonNode job) {
    return jobEnv(job, "CANDIDATE");
  }

  /** A value an observed Job was rendered with: the switchover's {@code LEADER}, a restart's {@code POD_UID}. */
  public static String jobEnv(JsonNode job, String variable) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (variable.equals(env.path("name").asText())) {
        return env.path("value").asText();
      }
    }
    return "?";
  }

  /** A step held until a replica catches up; the status names it and its lag. */
  static Plan waitForStreaming(Streaming.Lag lag) {
    return new Plan(
        Optional.empty(),
        Optional.empty(),
        Step.Waiting,
        "waiting for " + lag.message() + " before the next step",
        Wait.forReplica(lag),
        OptionalInt.empty());
  }

  private static Plan hold(Step step, String message) {
    return new Plan(Optional.empty(), step, message);
  }

  /** The live pods named {@code <n>-<ordinal>}, by ordinal. */
  static Map<Integer, ObjectNode> podsByOrdinal(String cluster, ObservedCluster observed) {
    Map<Integer, ObjectNode> pods = new TreeMap<>();
    for (ObjectNode pod : observed.livePods()) {
      String name = Names.of(pod);
      String suffix = name.startsWith(cluster + "-") ? name.substring(cluster.length() + 1) : "";
      if (suffix.matches("0|[1-9][0-9]{0,2}")) {
        pods.put(Integer.parseInt(suffix), pod);
      }
    }
    return pods;
  }
}
