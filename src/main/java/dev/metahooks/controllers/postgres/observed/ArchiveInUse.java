package dev.metahooks.controllers.postgres.observed;

import dev.metahooks.api.CompositeRequest;
import dev.metahooks.controllers.postgres.base.Names;
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
    return request
        .children()
        .get("apps/v1", "StatefulSet", request.namespace(), Names.statefulSet(request.name()))
        .flatMap(
            statefulSet ->
                ObservedCluster.spiloVariable(statefulSet.at("/spec/template/spec"), VARIABLE));
  }
}
