package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.kube.FieldProblem;
import java.util.Comparator;
import java.util.Optional;

/**
 * One prefix, one cluster: two clusters archiving WAL into the same place (or one inside the other's) would
 * overwrite each other's backups. The customize hook relates the namespace's PostgresClusters; of two that claim
 * overlapping places in one bucket, the one created first keeps it and the other is refused. Clusters in other
 * namespaces are not visible to the hook; there the default prefix (which starts with the namespace) keeps them
 * apart.
 */
public final class PrefixClaims {
  public static final String API_VERSION = "metahooks.dev/v1alpha1";
  public static final String KIND = "PostgresCluster";

  private PrefixClaims() {}

  public static Optional<FieldProblem> check(CompositeRequest request, BackupSpec backups) {
    if (backups.backup().isEmpty()) {
      return Optional.empty();
    }
    BackupSpec.S3 own = backups.backup().get().s3();
    ObjectNode self = request.parent();
    return request.related().entries(API_VERSION, KIND).stream()
        .filter(
            entry ->
                entry.namespace().equals(request.namespace())
                    && !entry.name().equals(request.name()))
        .map(ObjectMap.Entry::object)
        .filter(other -> claimedBefore(other, self))
        .filter(
            other ->
                SpecReader.read(other)
                    .spec()
                    .backups()
                    .backup()
                    .map(b -> b.s3().overlaps(own))
                    .orElse(false))
        .min(Comparator.comparing(Names::of))
        .map(
            other ->
                new FieldProblem(
                    "spec.backup.s3.prefix",
                    own.url()
                        + " overlaps where PostgresCluster "
                        + Names.of(other)
                        + " keeps its backups; one prefix belongs to one cluster"));
  }

  /** The other cluster was created first (by creationTimestamp, then by name). */
  private static boolean claimedBefore(ObjectNode other, ObjectNode self) {
    String otherCreated = other.path("metadata").path("creationTimestamp").asText("");
    String selfCreated = self.path("metadata").path("creationTimestamp").asText("");
    int byTime = otherCreated.compareTo(selfCreated);
    return byTime != 0 ? byTime < 0 : Names.of(other).compareTo(Names.of(self)) < 0;
  }
}
