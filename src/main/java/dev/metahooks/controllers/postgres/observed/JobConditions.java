package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** What an observed Job's status says: its {@code Complete} and {@code Failed} conditions. */
public final class JobConditions {
  private JobConditions() {}

  /** The condition of the type whose status is True, if any. */
  public static Optional<JsonNode> find(JsonNode jobStatus, String type) {
    for (JsonNode condition : jobStatus.path("conditions")) {
      if (type.equals(condition.path("type").asText())
          && "True".equals(condition.path("status").asText())) {
        return Optional.of(condition);
      }
    }
    return Optional.empty();
  }

  public static boolean has(JsonNode jobStatus, String type) {
    return find(jobStatus, type).isPresent();
  }

  public static boolean succeeded(JsonNode job) {
    return has(job.path("status"), "Complete");
  }

  public static boolean failed(JsonNode job) {
    return has(job.path("status"), "Failed");
  }
}
