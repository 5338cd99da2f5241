package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.MemberStatus;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.StandbyPhase;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.Optional;
import java.util.Set;

/**
 * {@code status.standby}: the source a standby follows and how, its phase (Bootstrapping until its standby leader
 * replays, Following, Promoting, Promoted), and
 * what Patroni says of the standby leader in its pod's {@code status} annotation: its role and WAL position
 * ({@code xlog_location}, patroni/ha.py:289-314 at v3.0.2). The source's position is not visible to the hook (its
 * pods belong to another cluster), so the lag itself is not reported.
 */
public final class StandbyStatus {
  private StandbyStatus() {}

  /** {@code rendered}: this answer renders the spec (a refused spec promotes nothing). */
  public static Optional<ObjectNode> render(
      ClusterSpec spec, ObservedCluster observed, boolean rendered) {
    StandbyPhase phase = StandbyPhase.of(spec, observed);
    if (phase == StandbyPhase.NONE) {
      return Optional.empty();
    }
    if (phase == StandbyPhase.PROMOTING && !rendered && !StandbyPhase.promotionSent(observed)) {
      phase =
          StandbyPhase.FOLLOWING; // the removal was refused: nothing has asked Patroni to promote
    }
    boolean replays =
        observed.primaryPod().flatMap(MemberStatus::of).map(StandbyStatus::replays).orElse(false);
    ObjectNode standby =
        Json.object()
            .put(
                "phase",
                switch (phase) {
                  case FOLLOWING -> replays ? "Following" : "Bootstrapping";
                  case PROMOTING -> "Promoting";
                  default -> "Promoted";
                });
    spec.standby()
        .ifPresent(
            given ->
                standby
                    .put("source", given.cluster())
                    .put("method", given.method())
                    .put("location", given.location()));
    observed
        .primary()
        .flatMap(leader -> patroniState(observed, leader))
        .ifPresent(
            state -> {
              standby.put("leader", Names.of(state.pod())).put("leaderRole", state.role());
              if (state.position().isIntegralNumber()) {
                standby.put("walPosition", state.position().asLong());
              }
            });
    return Optional.of(standby);
  }

  /**
   * The standby leader replays its source's WAL: Patroni runs it as {@code standby_leader} and publishes its WAL
   * position, and, where its Patroni says how it replicates (3.1 and later), it streams or restores from the
   * archive. Before that (no pod yet, the first member still restoring its base backup) the standby is
   * bootstrapping, whatever the spec says.
   */
  static boolean replays(MemberStatus leader) {
    boolean replicating =
        leader
            .replicationState()
            .map(REPLAYING::contains)
            .orElse(!leader.publishesReplicationState());
    return leader.running()
        && STANDBY_LEADER.equals(leader.role())
        && leader.walPosition().isPresent()
        && replicating;
  }

  private static final String STANDBY_LEADER = "standby_leader";

  /** {@code replication_state} of a member that replays (postgresql/__init__.py v4.0.4:538). */
  private static final Set<String> REPLAYING = Set.of("streaming", "in archive recovery");

  private record State(JsonNode pod, String role, JsonNode position) {}

  private static Optional<State> patroniState(ObservedCluster observed, String leader) {
    return observed.livePods().stream()
        .filter(pod -> leader.equals(Names.of(pod)))
        .findFirst()
        .flatMap(
            pod -> {
              try {
                JsonNode state =
                    Json.reader()
                        .readTree(
                            pod.path("metadata").path("annotations").path("status").asText(""));
                return state.path("role").isTextual()
                    ? Optional.of(
                        new State(pod, state.path("role").asText(), state.path("xlog_location")))
                    : Optional.empty();
              } catch (Exception e) {
                return Optional.empty(); // not Patroni's JSON
              }
            });
  }
}
