package dev.metahooks.controllers.postgres.children.standby;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.backup.WalArchive;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.spec.StandbySpec;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spilo's {@code STANDBY_*} variables ({@code spec.standby}). Spilo writes them only into the bootstrap DCS
 * configuration's {@code standby_cluster} (configure_spilo.py:174-194 at 4.0-p3): the store as
 * {@code STANDBY_WALE_S3_PREFIX} and its endpoint, region and credentials, which go into an env dir of their own
 * ({@code STANDBY_WALE_ENV_DIR}, configure_spilo.py:477-490 and 1212-1214) that the restore command and
 * {@code bootstrap_standby_with_wale} read (configure_spilo.py:182, 387-394); or {@code STANDBY_HOST} and
 * {@code STANDBY_PORT}, where Patroni streams from as this cluster's own {@code standby} user
 * (configure_spilo.py:359-361).
 */
public final class StandbyEnv {
  public static final String PREFIX = "STANDBY_";

  private StandbyEnv() {}

  public static List<ObjectNode> env(Optional<StandbySpec> standby) {
    List<ObjectNode> env = new ArrayList<>();
    standby.ifPresent(
        given -> {
          WalArchive.value(env, PREFIX + "SCOPE", given.cluster());
          given.archive().ifPresent(s3 -> WalArchive.store(env, PREFIX, s3));
          given
              .streaming()
              .ifPresent(
                  stream -> {
                    WalArchive.value(env, PREFIX + "HOST", stream.host());
                    WalArchive.value(env, PREFIX + "PORT", String.valueOf(stream.port()));
                  });
        });
    return env;
  }

  /** The {@code STANDBY_*} variables of the observed StatefulSet's Spilo container, as last applied. */
  public static List<JsonNode> observed(ObservedCluster observed) {
    List<JsonNode> found = new ArrayList<>();
    observed
        .statefulSet()
        .map(sts -> Preserved.lastApplied(sts).orElse(sts))
        .ifPresent(
            sts -> {
              ObservedCluster.spiloEnv(sts.at("/spec/template/spec"))
                  .forEach(
                      e -> {
                        if (e.path("name").asText().startsWith(PREFIX)) {
                          found.add(e);
                        }
                      });
            });
    return found;
  }

  /**
   * {@code standby_cluster} is in Patroni's bootstrap configuration, read once when the cluster is created: once the
   * StatefulSet exists, adding {@code spec.standby} or changing it is refused. Removing it is the promotion.
   */
  public static Optional<FieldProblem> change(
      Optional<StandbySpec> standby, ObservedCluster observed) {
    if (observed.statefulSet().isEmpty() || standby.isEmpty()) {
      return Optional.empty();
    }
    ArrayNode wanted = Json.array();
    env(standby).forEach(wanted::add);
    ArrayNode deployed = Json.array();
    observed(observed).forEach(deployed::add);
    if (wanted.equals(deployed)) {
      return Optional.empty();
    }
    return Optional.of(
        new FieldProblem(
            "spec.standby",
            deployed.isEmpty()
                ? "can only be set when the cluster is created: a running cluster does not become a standby (create a new "
                    + "cluster with spec.standby)"
                : "cannot change while the cluster follows its source: Patroni read it when the cluster was created; remove "
                    + "spec.standby to promote the cluster"));
  }
}
