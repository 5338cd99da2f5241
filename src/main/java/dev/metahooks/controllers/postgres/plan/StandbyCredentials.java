package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A standby's roles are its source's, passwords included: its members stream as the {@code standby} user
 * (configure_spilo.py:335-336 and 359-361 at 4.0-p3) and, once promoted, the users Job connects as the superuser.
 * So this cluster's {@code <n>-superuser} and {@code <n>-replication} Secrets are created with the passwords of the
 * source's Secrets (given to the standby by the source's owner, {@code SecretMarks}), once; afterwards they are kept as applied, and
 * the source's Secrets are no longer needed.
 */
public final class StandbyCredentials {
  private StandbyCredentials() {}

  public static Optional<String> superuser(ClusterSpec spec, ObservedCluster observed) {
    return spec.standby().flatMap(standby -> password(observed, standby.superuserSecret()));
  }

  public static Optional<String> replication(ClusterSpec spec, ObservedCluster observed) {
    return spec.standby().flatMap(standby -> password(observed, standby.replicationSecret()));
  }

  /** The source Secrets that this cluster's own Secrets still have to be created from, and are missing. */
  public static List<FieldProblem> missing(
      String cluster, ClusterSpec spec, ObservedCluster observed) {
    List<FieldProblem> problems = new ArrayList<>();
    spec.standby()
        .ifPresent(
            standby -> {
              check(
                  problems,
                  observed,
                  Names.superuserSecret(cluster),
                  standby.superuserSecret(),
                  "superuserSecret");
              check(
                  problems,
                  observed,
                  Names.replicationSecret(cluster),
                  standby.replicationSecret(),
                  "replicationSecret");
            });
    return problems;
  }

  private static void check(
      List<FieldProblem> problems,
      ObservedCluster observed,
      String own,
      String source,
      String field) {
    if (observed.secret(own).isEmpty() && password(observed, source).isEmpty()) {
      problems.add(
          new FieldProblem(
              "spec.standby.credentials." + field,
              SecretGrants.notGiven(source, List.of("password"), observed)
                  + "; a standby's "
                  + own
                  + " is created with its source's password, so the source's owner "
                  + "decides who may follow it"));
    }
  }

  private static Optional<String> password(ObservedCluster observed, String secret) {
    return observed
        .relatedSecret(secret)
        .flatMap(s -> SecretData.value(s, "password"))
        .filter(p -> !p.isEmpty());
  }
}
