package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.kube.FieldProblem;
import java.util.Optional;

/**
 * A clone or a logical restore without {@code s3} looks for the source's backups under {@code <namespace>/<source>}
 * in this cluster's store: where clusters archived before each incarnation had its own archive. A source created
 * since archives under its uid; when it is a cluster of this namespace (the hook relates them) and archives
 * elsewhere, the bootstrap is refused, with the source's archive to name, instead of cloning from the wrong place
 * (or from nothing). Checked before the first bootstrap only: afterwards the clone is fixed (WalArchive).
 */
public final class SourceArchives {
  private SourceArchives() {}

  public static Optional<FieldProblem> check(CompositeRequest request, BackupSpec backups, ObservedCluster observed) {
    if (observed.statefulSet().isPresent()) {
      return Optional.empty();
    }
    JsonNode bootstrap = request.parent().path("spec").path("bootstrap");
    if (backups.cloneFrom().flatMap(BackupSpec.Clone::s3).isPresent() && !bootstrap.path("clone").has("s3")) {
      return mismatch(request, "spec.bootstrap.clone.s3", backups.cloneFrom().get().cluster(),
          backups.cloneFrom().get().s3().get());
    }
    if (backups.logicalRestore().isPresent() && !bootstrap.path("logical").has("s3")) {
      return mismatch(request, "spec.bootstrap.logical.s3", backups.logicalRestore().get().cluster(),
          backups.logicalRestore().get().s3());
    }
    return Optional.empty();
  }

  private static Optional<FieldProblem> mismatch(CompositeRequest request, String field, String source,
      BackupSpec.S3 assumed) {
    return request.related().entries(PrefixClaims.API_VERSION, PrefixClaims.KIND).stream()
        // A cluster created again under its source's name is not that source: the source is gone.
        .filter(entry -> entry.namespace().equals(request.namespace()) && entry.name().equals(source)
            && !source.equals(request.name()))
        .findFirst()
        .flatMap(entry -> SpecReader.read(entry.object()).spec().backups().backup())
        .map(BackupSpec.Backup::s3)
        .filter(actual -> !actual.url().equals(assumed.url()))
        .map(actual -> new FieldProblem(field, "PostgresCluster " + source + " archives into " + actual.url()
            + ", not " + assumed.url() + ": give the source's store with prefix: " + actual.prefix()
            + " (its status.backup.location)"));
  }
}
