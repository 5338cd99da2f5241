package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Status conditions in the Kubernetes shape. A condition's {@code lastTransitionTime} is carried over from the
 * parent's observed status while its status stays the same, and is the injected clock's time when it changes:
 * so an unchanged world gives a byte-identical status, and a transition writes the time once.
 */
public final class Conditions {
  public static final String READY = "Ready";
  public static final String PROGRESSING = "Progressing";
  public static final String DEGRADED = "Degraded";
  public static final String USERS_READY = "UsersReady";
  public static final String CONFIGURATION_APPLIED = "ConfigurationApplied";
  public static final String SPEC_VALID = "SpecValid";
  public static final String DELETION_BLOCKED = "DeletionBlocked";
  public static final String MONITORING_READY = "MonitoringReady";
  public static final String POOLER_READY = "PoolerReady";
  public static final String TLS_READY = "TLSReady";

  /** {@code unknown}: neither True nor False, as nothing has shown which ({@code status} is then false). */
  public record Condition(
      String type, boolean status, String reason, String message, boolean unknown) {
    public Condition(String type, boolean status, String reason, String message) {
      this(type, status, reason, message, false);
    }

    public static Condition unknown(String type, String reason, String message) {
      return new Condition(type, false, reason, message, true);
    }
  }

  private Conditions() {}

  public static ArrayNode render(List<Condition> conditions, JsonNode parent, Instant now) {
    JsonNode previous = parent.path("status").path("conditions");
    JsonNode generation = parent.path("metadata").path("generation");
    ArrayNode out = Json.array();
    for (Condition condition : conditions) {
      String status = condition.unknown() ? "Unknown" : condition.status() ? "True" : "False";
      ObjectNode node =
          out.addObject()
              .put("type", condition.type())
              .put("status", status)
              .put("reason", condition.reason())
              .put("message", condition.message())
              .put("lastTransitionTime", transitionTime(previous, condition.type(), status, now));
      if (generation.isIntegralNumber()) {
        node.set("observedGeneration", generation);
      }
    }
    return out;
  }

  private static String transitionTime(JsonNode previous, String type, String status, Instant now) {
    if (previous.isArray()) {
      for (JsonNode condition : previous) {
        if (type.equals(condition.path("type").asText())
            && status.equals(condition.path("status").asText())
            && condition.path("lastTransitionTime").isTextual()) {
          return condition.path("lastTransitionTime").asText();
        }
      }
    }
    return now.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
