package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A switchover on request: the annotation {@value #ANNOTATION} on the cluster names the member to hand the leader
 * to, or {@code any}. The switchover Job of a rollout carries it out, with Patroni's checks (the candidate must be a
 * healthy member, a synchronous standby under synchronous replication). The hook never edits the cluster, so the
 * previous {@code status.switchover} says which request was answered: one that was done, refused or failed is not
 * tried again until the annotation changes (remove it, or set it anew, to ask again).
 */
public final class ManualSwitchover {
  public static final String ANNOTATION = "metahooks.dev/switchover";
  public static final String ANY = "any";

  /** What the Job's name is hashed from, with the request. */
  private static final String REVISION = "manual";

  public enum State {
    Waiting,
    Running,
    Done,
    Refused,
    Failed
  }

  /** The answer to a request: its state, what the status says, and the Job while one runs. */
  public record Plan(
      String request, State state, String message, Optional<Rollout.Switchover> job) {
    boolean answered() {
      return state == State.Done || state == State.Refused || state == State.Failed;
    }
  }

  private ManualSwitchover() {}

  /**
   * The request on the parent, if any, and where it stands; {@code busy} names what it waits for: a rollout or
   * scale-down stepping, a major upgrade's Job running.
   */
  public static Optional<Plan> plan(
      String cluster,
      JsonNode parent,
      ObservedCluster observed,
      Optional<String> busy,
      long maxLagBytes) {
    return request(parent)
        .map(
            request ->
                known(cluster, request, parent, observed)
                    .orElseGet(() -> decide(cluster, request, observed, busy, maxLagBytes)));
  }

  /**
   * The Job of the request that runs, if one does: observed, not failed, the leader not on its candidate yet. While
   * it runs, the rollout and a scale-down start nothing new.
   */
  public static Optional<String> runningJob(
      String cluster, JsonNode parent, ObservedCluster observed) {
    return request(parent)
        .flatMap(request -> known(cluster, request, parent, observed))
        .filter(plan -> plan.state() == State.Running)
        .flatMap(Plan::job)
        .map(Rollout.Switchover::name);
  }

  private static Optional<String> request(JsonNode parent) {
    JsonNode annotation = parent.path("metadata").path("annotations").path(ANNOTATION);
    return annotation.isTextual() && !annotation.asText().isBlank()
        ? Optional.of(annotation.asText().strip())
        : Optional.empty();
  }

  /** Where the request stands without a decision: answered before, no primary yet, or its observed Job. */
  private static Optional<Plan> known(
      String cluster, String request, JsonNode parent, ObservedCluster observed) {
    JsonNode previous = parent.path("status").path("switchover");
    if (request.equals(previous.path("request").asText(null))) {
      Optional<Plan> answered = previousAnswer(request, previous);
      if (answered.isPresent()) {
        return answered;
      }
    }
    Optional<String> leader = observed.primary();
    if (leader.isEmpty()) {
      return Optional.of(
          new Plan(
              request, State.Waiting, "waiting for Patroni to elect a primary", Optional.empty()));
    }
    // One Job per request, whoever leads: found again after the leader moved, so that "any" moves
    // it once.
    String name = Names.switchoverJob(cluster, REVISION, request);
    return observed
        .job(name)
        .map(existing -> followJob(cluster, request, name, existing, leader.get(), observed));
  }

  private static Optional<Plan> previousAnswer(String request, JsonNode previous) {
    try {
      State state = State.valueOf(previous.path("state").asText(""));
      Plan plan = new Plan(request, state, previous.path("message").asText(""), Optional.empty());
      return plan.answered() ? Optional.of(plan) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not a state this hook writes: decided afresh
    }
  }

  /** The observed Job, rendered again as it was given: a Job's template cannot change. */
  private static Plan followJob(
      String cluster,
      String request,
      String name,
      ObjectNode existing,
      String leader,
      ObservedCluster observed) {
    String from = Rollout.jobEnv(existing, "LEADER");
    String candidate = Rollout.jobEnv(existing, "CANDIDATE");
    if (candidate.equals(leader)) {
      return new Plan(
          request, State.Done, "switched over from " + from + " to " + candidate, Optional.empty());
    }
    Optional<Rollout.Switchover> job =
        Optional.of(
            new Rollout.Switchover(
                name,
                from,
                candidate,
                Rollout.leaderHttps(Rollout.podsByOrdinal(cluster, observed), from)));
    JsonNode jobStatus = existing.path("status");
    Optional<JsonNode> failed = JobConditions.find(jobStatus, "Failed");
    if (failed.isPresent()) {
      return new Plan(
          request,
          State.Failed,
          "Job "
              + name
              + " could not move the leader from "
              + from
              + " to "
              + candidate
              + " ("
              + failed.get().path("reason").asText("Failed")
              + "); its pod's log has Patroni's answer",
          Optional.empty());
    }
    return new Plan(
        request,
        State.Running,
        "Job "
            + name
            + " (switchover from "
            + from
            + " to "
            + candidate
            + ") "
            + (JobConditions.find(jobStatus, "Complete").isPresent()
                ? "has completed; waiting for the leader label to move"
                : "is running"),
        job);
  }

  /** A request with a primary and no Job yet ({@link #known} found nothing). */
  private static Plan decide(
      String cluster,
      String request,
      ObservedCluster observed,
      Optional<String> busy,
      long maxLagBytes) {
    String leader = observed.primary().orElseThrow();
    Map<Integer, ObjectNode> pods = Rollout.podsByOrdinal(cluster, observed);
    String name = Names.switchoverJob(cluster, REVISION, request);
    if (request.equals(leader)) {
      return new Plan(request, State.Done, request + " is the primary", Optional.empty());
    }
    if (busy.isPresent()) {
      return new Plan(
          request, State.Waiting, "waiting for " + busy.get() + " to finish", Optional.empty());
    }
    Optional<String> refusal = refusal(request, leader, pods, observed);
    if (refusal.isPresent()) {
      return new Plan(request, State.Refused, refusal.get(), Optional.empty());
    }
    // The target must have caught up with the leader: until then the request waits, naming its lag.
    ObjectNode leaderPod = observed.primaryPod().orElseThrow();
    List<ObjectNode> targets =
        ANY.equals(request)
            ? candidates(leader, pods, observed).toList()
            : pods.values().stream().filter(p -> Names.of(p).equals(request)).toList();
    Optional<String> caughtUp =
        targets.stream()
            .filter(p -> Streaming.lag(p, leaderPod, maxLagBytes).isEmpty())
            .map(Names::of)
            .findFirst();
    if (caughtUp.isEmpty()) {
      return new Plan(
          request,
          State.Waiting,
          "waiting for "
              + Streaming.lag(targets.get(0), leaderPod, maxLagBytes).orElseThrow().message(),
          Optional.empty());
    }
    String candidate = caughtUp.get();
    return new Plan(
        request,
        State.Running,
        "Job " + name + " (switchover from " + leader + " to " + candidate + ") is starting",
        Optional.of(
            new Rollout.Switchover(name, leader, candidate, Rollout.leaderHttps(pods, leader))));
  }

  /** Why the request cannot be carried out, if it cannot: the target must be a ready replica Patroni may promote. */
  private static Optional<String> refusal(
      String request, String leader, Map<Integer, ObjectNode> pods, ObservedCluster observed) {
    if (ANY.equals(request)) {
      return candidates(leader, pods, observed).findFirst().isPresent()
          ? Optional.empty()
          : Optional.of("no ready " + kind(observed) + " to switch over to");
    }
    Optional<ObjectNode> target =
        pods.values().stream().filter(p -> Names.of(p).equals(request)).findFirst();
    if (target.isEmpty()) {
      return Optional.of(request + " is not a member of the cluster");
    }
    if (!ObservedCluster.ready(target.get())) {
      return Optional.of(request + " is not ready");
    }
    if (!observed.syncStandbys().isEmpty() && !observed.syncStandbys().contains(request)) {
      return Optional.of(
          request
              + " is not a synchronous standby (Patroni names "
              + String.join(", ", observed.syncStandbys())
              + "), and Patroni switches over only to one");
    }
    return Optional.empty();
  }

  private static Stream<ObjectNode> candidates(
      String leader, Map<Integer, ObjectNode> pods, ObservedCluster observed) {
    return pods.values().stream()
        .filter(ObservedCluster::ready)
        .filter(pod -> !Names.of(pod).equals(leader))
        .filter(
            pod ->
                observed.syncStandbys().isEmpty()
                    || observed.syncStandbys().contains(Names.of(pod)));
  }

  private static String kind(ObservedCluster observed) {
    return observed.syncStandbys().isEmpty() ? "replica" : "synchronous standby";
  }
}
