package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.Quantities;
import dev.metahooks.controllers.postgres.spec.WalVolume;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code spec.storage.wal} against the observed StatefulSet: once the cluster has a StatefulSet, the WAL volume can
 * be neither added nor removed (the claim templates are immutable, and moving pg_wal of running members between
 * volumes is how WAL is lost), nor change size or class. Before the StatefulSet exists anything goes.
 */
public final class WalVolumeChecks {
  private WalVolumeChecks() {}

  public static List<FieldProblem> check(ClusterSpec spec, ObservedCluster observed) {
    List<FieldProblem> problems = new ArrayList<>();
    Optional<Optional<JsonNode>> deployed = observed.claimTemplate(Spilo.WAL_VOLUME);
    if (deployed.isEmpty()) {
      return problems;
    }
    Optional<JsonNode> template = deployed.get();
    Optional<WalVolume> wanted = spec.walVolume();
    if (template.isPresent() != wanted.isPresent()) {
      problems.add(
          new FieldProblem(
              "spec.storage.wal",
              (wanted.isPresent() ? "cannot be added" : "cannot be removed")
                  + " once the cluster exists: each member's pg_wal stays where initdb or pg_basebackup put it "
                  + (wanted.isPresent() ? "(in the data directory)" : "(on the WAL volume)")
                  + "; move the data to a new cluster "
                  + (wanted.isPresent()
                      ? "with a logical restore (a clone cannot have a WAL volume)"
                      : "without one (a clone or a logical restore)")));
      return problems;
    }
    if (template.isEmpty()) {
      return problems;
    }
    String size =
        template.get().path("spec").path("resources").path("requests").path("storage").asText();
    if (!Quantities.same(size, wanted.get().size())) {
      problems.add(
          new FieldProblem(
              "spec.storage.wal.size",
              "cannot change from "
                  + size
                  + " to "
                  + wanted.get().size()
                  + ": the StatefulSet's volume claim template is immutable"));
    }
    JsonNode className = template.get().path("spec").path("storageClassName");
    Optional<String> deployedClass =
        className.isTextual() ? Optional.of(className.asText()) : Optional.empty();
    ChangeChecks.classChange(
            "spec.storage.wal.storageClassName",
            deployedClass,
            Optional.ofNullable(wanted.get().storageClassName()))
        .ifPresent(problems::add);
    return problems;
  }
}
