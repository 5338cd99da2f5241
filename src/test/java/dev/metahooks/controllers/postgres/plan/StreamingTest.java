package dev.metahooks.controllers.postgres.plan;

import static dev.metahooks.controllers.postgres.PatroniMemberData.POSITION;
import static dev.metahooks.controllers.postgres.PatroniMemberData.Version.V3_0_2;
import static dev.metahooks.controllers.postgres.PatroniMemberData.Version.V4_0_4;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.PatroniMemberData;
import dev.metahooks.controllers.postgres.observed.MemberStatus;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Reading the pods' {@code status} annotations as Patroni 3.0.2 and 4.0.4 write them. */
class StreamingTest {
  private static final long BOUND = 16L << 20;

  @Test
  void theFieldsOfBothVersionsAreRead() {
    MemberStatus old =
        MemberStatus.of(pod("a", PatroniMemberData.leader(V3_0_2, "10.0.0.1", POSITION, 2)))
            .orElseThrow();
    assertThat(old.primary()).isTrue();
    assertThat(old.walPosition()).isEqualTo(OptionalLong.of(POSITION));
    assertThat(old.timeline()).isEqualTo(OptionalLong.of(2));
    assertThat(old.publishesReplicationState()).isFalse();
    MemberStatus current =
        MemberStatus.of(
                pod("b", PatroniMemberData.replica(V4_0_4, "10.0.0.2", POSITION, 2, "streaming")))
            .orElseThrow();
    assertThat(current.primary()).isFalse();
    assertThat(current.replicationState()).contains("streaming");
    assertThat(current.publishesReplicationState()).isTrue();
    assertThat(MemberStatus.of(pod("c", "not json"))).isEmpty();
    assertThat(MemberStatus.of(Json.object())).isEmpty();
  }

  @Test
  void aStreamingReplicaWithinTheBoundHasCaughtUpInBothVersions() {
    assertThat(
            lag(
                V4_0_4,
                PatroniMemberData.replica(V4_0_4, "10.0.0.2", POSITION - BOUND, 1, "streaming")))
        .isEmpty();
    assertThat(lag(V3_0_2, PatroniMemberData.replica(V3_0_2, "10.0.0.2", POSITION, 1, null)))
        .isEmpty();
    // A replica's published position may be a cycle ahead of the leader's: not negative lag, caught
    // up.
    assertThat(
            lag(
                V4_0_4,
                PatroniMemberData.replica(V4_0_4, "10.0.0.2", POSITION + 100, 1, "streaming")))
        .isEmpty();
  }

  @Test
  void aReplicaBeyondTheBoundIsBehindByItsLag() {
    Optional<Streaming.Lag> lag =
        lag(V3_0_2, PatroniMemberData.replica(V3_0_2, "10.0.0.2", POSITION - BOUND - 1, 1, null));
    assertThat(lag)
        .hasValueSatisfying(
            l -> {
              assertThat(l.member()).isEqualTo("orders-1");
              assertThat(l.bytes()).isEqualTo(OptionalLong.of(BOUND + 1));
              assertThat(l.message())
                  .isEqualTo(
                      "orders-1 to catch up with orders-0 (16777217 bytes of WAL behind, "
                          + "spec.updates.maxLagBytes allows 16777216)");
            });
  }

  @Test
  void aReplicaThatRunsWithoutStreamingIsBehindThoughItsPositionIsClose() {
    // 4.0.4 leaves replication_state out when the WAL receiver does not stream and there is no
    // restore_command.
    assertThat(lag(V4_0_4, PatroniMemberData.replica(V4_0_4, "10.0.0.2", POSITION, 1, null)))
        .hasValueSatisfying(
            l -> assertThat(l.reason()).isEqualTo("not streaming: replication_state absent"));
    assertThat(
            lag(
                V4_0_4,
                PatroniMemberData.replica(V4_0_4, "10.0.0.2", POSITION, 1, "in archive recovery")))
        .hasValueSatisfying(l -> assertThat(l.reason()).contains("in archive recovery"));
  }

  @Test
  void anotherTimelineAStartingMemberOrNoAnnotationIsBehind() {
    assertThat(lag(V3_0_2, PatroniMemberData.replica(V3_0_2, "10.0.0.2", POSITION, 1, null), 2))
        .hasValueSatisfying(
            l -> assertThat(l.reason()).isEqualTo("on timeline 1, the leader on 2"));
    assertThat(lag(V4_0_4, PatroniMemberData.starting(V4_0_4, "10.0.0.2")))
        .hasValueSatisfying(l -> assertThat(l.reason()).contains("state starting"));
    ObjectNode bare = Json.object();
    bare.putObject("metadata").put("name", "orders-1");
    assertThat(
            Streaming.lag(
                bare,
                pod("orders-0", PatroniMemberData.leader(V4_0_4, "10.0.0.1", POSITION, 1)),
                BOUND))
        .hasValueSatisfying(
            l -> assertThat(l.reason()).isEqualTo("Patroni has published no status for it"));
  }

  private static Optional<Streaming.Lag> lag(
      PatroniMemberData.Version leaderVersion, String replica) {
    return lag(leaderVersion, replica, 1);
  }

  private static Optional<Streaming.Lag> lag(
      PatroniMemberData.Version leaderVersion, String replica, int timeline) {
    return Streaming.lag(
        pod("orders-1", replica),
        pod("orders-0", PatroniMemberData.leader(leaderVersion, "10.0.0.1", POSITION, timeline)),
        BOUND);
  }

  private static ObjectNode pod(String name, String status) {
    ObjectNode pod = Json.object();
    pod.putObject("metadata").put("name", name).putObject("annotations").put("status", status);
    return pod;
  }
}
