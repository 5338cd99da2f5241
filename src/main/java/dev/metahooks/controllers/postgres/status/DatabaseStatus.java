package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.List;
import java.util.Optional;

/**
 * {@code status.databases}: each declared database with the state of the users Job that carries the spec as it
 * is now (the Job's name hashes the declared databases, so a completed Job has applied exactly these).
 */
public final class DatabaseStatus {
  public enum State {
    Pending,
    Applying,
    Applied,
    Failed
  }

  private DatabaseStatus() {}

  /** The list, when databases are declared. */
  public static Optional<ArrayNode> render(
      List<ClusterSpec.Database> databases, Optional<JsonNode> usersJob) {
    if (databases.isEmpty()) {
      return Optional.empty();
    }
    State state = state(usersJob);
    ArrayNode list = Json.array();
    databases.forEach(
        database ->
            list.addObject()
                .put("name", database.name())
                .put("owner", database.owner())
                .put("reclaimPolicy", database.reclaimPolicy())
                .put("state", state.name()));
    return Optional.of(list);
  }

  static State state(Optional<JsonNode> usersJob) {
    if (usersJob.isEmpty()) {
      return State.Pending;
    }
    if (JobConditions.has(usersJob.get(), "Failed")) {
      return State.Failed;
    }
    return JobConditions.has(usersJob.get(), "Complete") ? State.Applied : State.Applying;
  }
}
