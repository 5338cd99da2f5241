package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.MemberStatus;
import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether a replica has caught up with the leader, from what Patroni publishes in the pods' {@code status}
 * annotations ({@link MemberStatus}). Pod readiness is not enough: Patroni's {@code /readiness} answers 200 for a
 * replica that runs without replicating (up to 4.0; the lag check came in 4.1). A replica has caught up when it
 * runs as a replica on the leader's timeline, streams ({@code replication_state: streaming}, where its Patroni
 * publishes that: 3.1 and later), and its WAL position is at most {@code maxLagBytes} behind the leader's. Patroni
 * 3.0 does not say whether a replica streams; there the same timeline and the position within the bound stand for
 * it.
 */
public final class Streaming {
  /**
   * A replica that has not caught up: who, behind whom, why, and by how many bytes of WAL when that is known.
   */
  public record Lag(
      String member, String leader, String reason, OptionalLong bytes, long maxBytes) {
    public String message() {
      return member + " to catch up with " + leader + " (" + reason + ")";
    }
  }

  private Streaming() {}

  /** Why {@code replica} has not caught up with {@code leader}, or empty when it has. */
  public static Optional<Lag> lag(JsonNode replica, JsonNode leader, long maxBytes) {
    String member = Names.of(replica);
    String leaderName = Names.of(leader);
    Optional<MemberStatus> status = MemberStatus.of(replica);
    Optional<MemberStatus> leaderStatus = MemberStatus.of(leader);
    if (status.isEmpty()) {
      return lag(member, leaderName, "Patroni has published no status for it", maxBytes);
    }
    MemberStatus s = status.get();
    if (!s.running() || !"replica".equals(s.role())) {
      return lag(
          member,
          leaderName,
          "Patroni reports state " + quoted(s.state()) + ", role " + quoted(s.role()),
          maxBytes);
    }
    if (s.replicationState().isPresent()
        ? !"streaming".equals(s.replicationState().get())
        : s.publishesReplicationState()) {
      return lag(
          member,
          leaderName,
          "not streaming: replication_state " + s.replicationState().orElse("absent"),
          maxBytes);
    }
    if (leaderStatus.isEmpty()
        || !leaderStatus.get().primary()
        || leaderStatus.get().walPosition().isEmpty()) {
      return lag(member, leaderName, "the leader's WAL position is not published", maxBytes);
    }
    MemberStatus l = leaderStatus.get();
    if (s.timeline().isEmpty()
        || l.timeline().isEmpty()
        || s.timeline().getAsLong() != l.timeline().getAsLong()) {
      return lag(
          member,
          leaderName,
          "on timeline " + text(s.timeline()) + ", the leader on " + text(l.timeline()),
          maxBytes);
    }
    if (s.walPosition().isEmpty()) {
      return lag(member, leaderName, "its WAL position is not published", maxBytes);
    }
    long behind = Math.max(0, l.walPosition().getAsLong() - s.walPosition().getAsLong());
    if (behind > maxBytes) {
      return Optional.of(
          new Lag(
              member,
              leaderName,
              behind + " bytes of WAL behind, spec.updates.maxLagBytes allows " + maxBytes,
              OptionalLong.of(behind),
              maxBytes));
    }
    return Optional.empty();
  }

  /** The first of {@code pods} other than the leader that has not caught up, if any. */
  public static Optional<Lag> firstBehind(
      Collection<? extends JsonNode> pods, JsonNode leader, long maxBytes) {
    String leaderName = Names.of(leader);
    return pods.stream()
        .filter(pod -> !Names.of(pod).equals(leaderName))
        .map(pod -> lag(pod, leader, maxBytes))
        .flatMap(Optional::stream)
        .findFirst();
  }

  private static Optional<Lag> lag(String member, String leader, String reason, long maxBytes) {
    return Optional.of(new Lag(member, leader, reason, OptionalLong.empty(), maxBytes));
  }

  private static String quoted(String value) {
    return value.isEmpty() ? "(none)" : value;
  }

  private static String text(OptionalLong value) {
    return value.isPresent() ? String.valueOf(value.getAsLong()) : "(unknown)";
  }
}
