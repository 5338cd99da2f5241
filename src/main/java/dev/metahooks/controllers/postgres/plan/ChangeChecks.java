package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.Quantities;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spec changes the running cluster cannot take, found by comparing the spec with the observed StatefulSet:
 * a major version decrease (an increase is an upgrade in place, {@link MajorUpgrade}), a smaller storage size
 * (volumes never shrink; a larger one grows them, {@link VolumeGrowth}) and a storage class change (a StatefulSet's volume claim templates are
 * immutable). The CRD refuses some of these
 * already; the hook checks again because CEL may be off or the object older than the rule.
 */
public final class ChangeChecks {
  private ChangeChecks() {}

  public static List<FieldProblem> check(ClusterSpec spec, ObservedCluster observed) {
    List<FieldProblem> problems = new ArrayList<>();
    observed
        .deployedVersion()
        .flatMap(version -> MajorUpgrade.versionChange(observed, version, spec))
        .ifPresent(problems::add);
    observed
        .deployedStorageSize()
        .ifPresent(
            size -> {
              // A larger size grows the claims (VolumeGrowth); a volume never shrinks.
              String wanted = spec.storage().size();
              if (!Quantities.same(size, wanted)
                  && !(Quantities.valid(size) && VolumeGrowth.below(size, wanted))) {
                problems.add(
                    new FieldProblem(
                        "spec.storage.size",
                        "cannot shrink from "
                            + size
                            + " to "
                            + wanted
                            + ": a volume never shrinks (a smaller size is a new cluster, restored from a backup)"));
              }
            });
    observed
        .deployedStorageClass()
        .flatMap(
            deployed ->
                classChange(
                    "spec.storage.storageClassName",
                    deployed,
                    Optional.ofNullable(spec.storage().storageClassName())))
        .ifPresent(problems::add);
    return problems;
  }

  /** A claim template's storage class change ({@code deployed}, {@code wanted}: empty for the cluster default). */
  public static Optional<FieldProblem> classChange(
      String field, Optional<String> deployed, Optional<String> wanted) {
    if (deployed.equals(wanted)) {
      return Optional.empty();
    }
    return Optional.of(
        new FieldProblem(
            field,
            "cannot change from "
                + deployed.orElse("(cluster default)")
                + " to "
                + wanted.orElse("(cluster default)")
                + ": the StatefulSet's volume claim template is immutable"));
  }
}
