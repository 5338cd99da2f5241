package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;

/**
 * The {@code status} annotation Patroni writes on its pod with Kubernetes as DCS, shaped exactly as the source
 * writes it: ha.py touch_member builds {@code data} (v3.0.2:289-340, v4.0.4:437-489) in this key order, and
 * dcs/kubernetes.py touch_member writes {@code json.dumps(data, separators=(',', ':'))} (v3.0.2:1230,
 * v4.0.4:1340). 3.0.2 names the leader's role {@code master} and writes no {@code replication_state}; 4.0.4 (the
 * Patroni of Spilo 4.0-p3) names it {@code primary} and writes {@code replication_state} on a standby
 * (v4.0.4:464-467).
 */
public final class PatroniMemberData {
  public enum Version {
    V3_0_2("3.0.2", "master"),
    V4_0_4("4.0.4", "primary");

    final String text;
    final String leaderRole;

    Version(String text, String leaderRole) {
      this.text = text;
      this.leaderRole = leaderRole;
    }
  }

  /** A WAL position in the middle of segment 3 of timeline 1 (0/3000060). */
  public static final long POSITION = 0x3000060L;

  private PatroniMemberData() {}

  /** A running leader at {@code position} on {@code timeline}. */
  public static String leader(Version version, String podIp, long position, int timeline) {
    ObjectNode data = base(version, podIp, "running", version.leaderRole);
    data.put("xlog_location", position);
    data.put("timeline", timeline);
    return text(data);
  }

  /** A running replica; {@code replicationState} null leaves the field out (3.0.2, or 4.0.4 not streaming). */
  public static String replica(
      Version version, String podIp, long position, int timeline, String replicationState) {
    ObjectNode data = base(version, podIp, "running", "replica");
    data.put("xlog_location", position);
    if (replicationState != null) {
      data.put("replication_state", replicationState);
    }
    data.put("timeline", timeline);
    return text(data);
  }

  /** A member whose PostgreSQL is not running yet: no WAL position (ha.py writes it only while running). */
  public static String starting(Version version, String podIp) {
    return text(base(version, podIp, "starting", "replica"));
  }

  private static ObjectNode base(Version version, String podIp, String state, String role) {
    return Json.object()
        .put("conn_url", "postgres://" + podIp + ":5432/postgres")
        .put("api_url", "http://" + podIp + ":8008/patroni")
        .put("state", state)
        .put("role", role)
        .put("version", version.text);
  }

  private static String text(ObjectNode data) {
    try {
      return JsonTrees.MAPPER.writeValueAsString(data);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
