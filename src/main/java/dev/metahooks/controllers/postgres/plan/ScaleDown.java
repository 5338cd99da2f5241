package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A scale-down never removes the primary: when the leader runs on an ordinal that the new {@code instances} removes,
 * the StatefulSet keeps its replicas while a switchover Job hands the leader to a ready replica that stays (a
 * synchronous standby under synchronous replication, the only kind Patroni switches over to), and the replicas
 * shrink once the leader label has moved. Without it the StatefulSet controller would delete the primary's pod and
 * Patroni would fail over, once or twice, each a write outage. Hibernation ({@code instances: 0}) removes every pod,
 * so nothing moves.
 */
public final class ScaleDown {
  private ScaleDown() {}

  /**
   * The step that holds the scale-down for the primary's move, or empty when the scale-down may go on;
   * {@code switchoverOnRequest}: the Job of a switchover on request that runs, if one does.
   */
  public static Optional<Rollout.Plan> primaryMove(
      String cluster,
      ClusterSpec spec,
      ObservedCluster observed,
      Optional<String> switchoverOnRequest) {
    int instances = spec.instances();
    Optional<ObjectNode> sts = observed.statefulSet();
    Optional<String> leader = observed.primary();
    if (sts.isEmpty() || leader.isEmpty() || instances == 0) {
      return Optional.empty();
    }
    int current = sts.get().path("spec").path("replicas").asInt(instances);
    // Its candidate may be a pod the scale-down removes: every pod stays until it ends. (It starts
    // only while no
    // scale-down steps, so no scale-down Job runs beside it.)
    if (current > instances && switchoverOnRequest.isPresent()) {
      return Optional.of(
          held(
              Optional.empty(),
              Rollout.Step.Waiting,
              current,
              "waiting for the switchover asked for"
                  + " (Job "
                  + switchoverOnRequest.get()
                  + ") to end before scaling down from "
                  + current
                  + " to "
                  + instances));
    }
    Map<Integer, ObjectNode> pods = Rollout.podsByOrdinal(cluster, observed);
    OptionalInt leaderOrdinal =
        pods.entrySet().stream()
            .filter(e -> Names.of(e.getValue()).equals(leader.get()))
            .mapToInt(Map.Entry::getKey)
            .findFirst();
    if (current <= instances || leaderOrdinal.isEmpty() || leaderOrdinal.getAsInt() < instances) {
      return Optional.empty();
    }
    // No restart Job while the leader moves (the rollout asks for none): it goes on after the
    // scale-down.
    String name = Names.switchoverJob(cluster, "scale-down-to-" + instances, leader.get());
    String what = "before scaling down from " + current + " to " + instances;
    Optional<ObjectNode> existing = observed.job(name);
    if (existing.isPresent()) {
      String candidate = Rollout.candidateOf(existing.get());
      Optional<Rollout.Switchover> job =
          Optional.of(switchover(name, leader.get(), candidate, pods));
      JsonNode jobStatus = existing.get().path("status");
      Optional<JsonNode> failed = JobConditions.find(jobStatus, "Failed");
      if (failed.isPresent()) {
        return Optional.of(
            held(
                job,
                Rollout.Step.SwitchoverFailed,
                current,
                "Job "
                    + name
                    + " could not move the primary from "
                    + leader.get()
                    + " to "
                    + candidate
                    + " "
                    + what
                    + " ("
                    + failed.get().path("reason").asText("Failed")
                    + "); the scale-down stops here: its pod's log has "
                    + "Patroni's answer; delete the Job to try again"));
      }
      String state =
          JobConditions.find(jobStatus, "Complete").isPresent()
              ? "has completed; waiting for the leader label to move"
              : "is running";
      return Optional.of(
          held(
              job,
              Rollout.Step.ScaleDownSwitchover,
              current,
              "Job "
                  + name
                  + " (switchover from "
                  + leader.get()
                  + " to "
                  + candidate
                  + " "
                  + what
                  + ") "
                  + state));
    }
    List<ObjectNode> eligible =
        pods.entrySet().stream()
            .filter(e -> e.getKey() < instances && ObservedCluster.ready(e.getValue()))
            .map(Map.Entry::getValue)
            .filter(
                pod ->
                    observed.syncStandbys().isEmpty()
                        || observed.syncStandbys().contains(Names.of(pod)))
            .toList();
    ObjectNode leaderPod = observed.primaryPod().orElseThrow();
    long maxLag = spec.updates().maxLagBytes();
    Optional<String> candidate =
        eligible.stream()
            .filter(pod -> Streaming.lag(pod, leaderPod, maxLag).isEmpty())
            .map(Names::of)
            .findFirst();
    if (candidate.isEmpty() && !eligible.isEmpty()) {
      Streaming.Lag lag = Streaming.lag(eligible.get(0), leaderPod, maxLag).orElseThrow();
      return Optional.of(
          new Rollout.Plan(
              Optional.empty(),
              Optional.empty(),
              Rollout.Step.Waiting,
              "the primary "
                  + leader.get()
                  + " runs on an ordinal the scale-down removes; waiting for "
                  + lag.message()
                  + " to move it "
                  + what,
              Rollout.Wait.forReplica(lag),
              OptionalInt.of(current)));
    }
    if (candidate.isEmpty()) {
      return Optional.of(
          held(
              Optional.empty(),
              Rollout.Step.Waiting,
              current,
              "the primary "
                  + leader.get()
                  + " runs on an ordinal the scale-down removes; waiting for a ready "
                  + (observed.syncStandbys().isEmpty() ? "replica" : "synchronous standby")
                  + " below ordinal "
                  + instances
                  + " to move it to "
                  + what));
    }
    return Optional.of(
        held(
            Optional.of(switchover(name, leader.get(), candidate.get(), pods)),
            Rollout.Step.ScaleDownSwitchover,
            current,
            "Job "
                + name
                + " (switchover from "
                + leader.get()
                + " to "
                + candidate.get()
                + " "
                + what
                + ") is starting"));
  }

  private static Rollout.Switchover switchover(
      String name, String leader, String candidate, Map<Integer, ObjectNode> pods) {
    return new Rollout.Switchover(name, leader, candidate, Rollout.leaderHttps(pods, leader));
  }

  private static Rollout.Plan held(
      Optional<Rollout.Switchover> job, Rollout.Step step, int replicas, String message) {
    return new Rollout.Plan(
        Optional.empty(), job, step, message, Rollout.Wait.none(), OptionalInt.of(replicas));
  }
}
