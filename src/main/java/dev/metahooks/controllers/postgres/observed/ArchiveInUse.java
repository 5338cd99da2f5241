package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import java.util.Optional;

/**
 * The archive a cluster's pods archive into now: {@code WALE_S3_PREFIX} of the Spilo container of the observed
 * StatefulSet, as the hook rendered it. Read before the spec's defaults are applied, so that a running cluster keeps
 * its archive ({@code DefaultArchive}).
 */
public final class ArchiveInUse {
  public static final String VARIABLE = "WALE_S3_PREFIX";

  private ArchiveInUse() {}

  public static Optional<String> of(CompositeRequest request) {
    if (!request.children().has("apps/v1", "StatefulSet")) {
      return Optional.empty();
    }
    return request.children().get("apps/v1", "StatefulSet", request.namespace(), Names.statefulSet(request.name()))
        .flatMap(ArchiveInUse::variable);
  }

  private static Optional<String> variable(JsonNode statefulSet) {
    for (JsonNode container : statefulSet.path("spec").path("template").path("spec").path("containers")) {
      if (Spilo.CONTAINER.equals(container.path("name").asText())) {
        for (JsonNode variable : container.path("env")) {
          if (VARIABLE.equals(variable.path("name").asText()) && variable.path("value").isTextual()) {
            return Optional.of(variable.path("value").asText());
          }
        }
      }
    }
    return Optional.empty();
  }
}
