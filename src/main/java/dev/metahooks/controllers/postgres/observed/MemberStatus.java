package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Json;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What Patroni publishes about one member when Kubernetes is its DCS (as Spilo runs it): the JSON of its member
 * data in the pod's {@code status} annotation (patroni/dcs/kubernetes.py touch_member, v3.0.2:1230 and
 * v4.0.4:1340, {@code json.dumps(data)} of ha.py touch_member). The fields read here, as Patroni 3.0.2 and 4.0.4
 * (the Patroni of the default Spilo image 4.0-p3, postgres-appliance/Dockerfile:74 {@code PATRONIVERSION=4.0.4})
 * write them:
 *
 * <ul>
 *   <li>{@code state}: {@code running} once PostgreSQL runs (ha.py v3.0.2:294, v4.0.4:442);
 *   <li>{@code role}: {@code master} (3.0.2) or {@code primary} (4.0) for the leader, {@code replica} for a replica
 *       (ha.py v3.0.2:295, v4.0.4:443);
 *   <li>{@code xlog_location}: the WAL position as an integer, the primary's current one, a replica's received or
 *       replayed one, whichever is further (ha.py v3.0.2:314, v4.0.4:463; postgresql/__init__.py
 *       timeline_wal_position);
 *   <li>{@code timeline} (ha.py v3.0.2:330, v4.0.4:483);
 *   <li>{@code replication_state}: on a replica, {@code streaming} while its WAL receiver streams, {@code in archive
 *       recovery} while it restores from the archive, absent otherwise; written since Patroni 3.1 (ha.py
 *       v4.0.4:467, postgresql/__init__.py v4.0.4:538), never by 3.0;
 *   <li>{@code version}: Patroni's version; {@code pending_restart}.
 * </ul>
 *
 * Patroni writes the annotation in every cycle in which one of these changed ({@code loop_wait}, 10 s), so the
 * leader's and a replica's positions may be up to a cycle apart.
 */
public record MemberStatus(
    String state,
    String role,
    OptionalLong walPosition,
    OptionalLong timeline,
    Optional<String> replicationState,
    String version,
    boolean pendingRestart) {
  public static final String ANNOTATION = "status";

  /** The member status in the pod's annotation; empty without one, or when it is not Patroni's JSON. */
  public static Optional<MemberStatus> of(JsonNode pod) {
    JsonNode text = pod.path("metadata").path("annotations").path(ANNOTATION);
    if (!text.isTextual()) {
      return Optional.empty();
    }
    JsonNode data;
    try {
      data = Json.reader().readTree(text.asText());
    } catch (Exception e) {
      return Optional.empty();
    }
    if (data == null || !data.isObject()) {
      return Optional.empty();
    }
    return Optional.of(
        new MemberStatus(
            data.path("state").asText(""),
            data.path("role").asText(""),
            integer(data.path("xlog_location")),
            integer(data.path("timeline")),
            data.path("replication_state").isTextual()
                ? Optional.of(data.path("replication_state").asText())
                : Optional.empty(),
            data.path("version").asText(""),
            data.path("pending_restart").asBoolean(false)));
  }

  public boolean running() {
    return "running".equals(state);
  }

  /** The leader's role: {@code master} up to Patroni 3, {@code primary} from 4.0. */
  public boolean primary() {
    return "master".equals(role) || "primary".equals(role);
  }

  /**
   * Whether this Patroni publishes {@code replication_state} (3.1 and later): then a replica without it is not
   * streaming. Patroni 3.0 never writes it, and an unknown version counts as such.
   */
  public boolean publishesReplicationState() {
    String[] parts = version.split("\\.");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major > 3 || (major == 3 && minor >= 1);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static OptionalLong integer(JsonNode value) {
    return value.isIntegralNumber() && value.canConvertToLong()
        ? OptionalLong.of(value.asLong())
        : OptionalLong.empty();
  }
}
