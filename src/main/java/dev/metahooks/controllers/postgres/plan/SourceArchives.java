package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.api.CompositeRequest;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a cluster filled from another one's archive looks for it: a clone from backups, a logical restore and a
 * standby that follows the archive. Without {@code prefix}, the spec reads {@code <namespace>/<source>}, where
 * clusters archived before each incarnation had an archive of its own; a source created since archives under its
 * uid. So a source store without {@code prefix} is taken only when the source is a cluster of this namespace (the
 * hook relates them) that archives exactly there. Otherwise it is refused, naming the prefix to give: the source's
 * {@code status.backup.location} when the hook sees the source, its form when the source is gone (a deleted
 * cluster, or the one a cluster of the same name is restored from), rather than a bootstrap that Spilo retries and
 * gives up on, or a restore Job that finds nothing. Checked before the first bootstrap only: afterwards the source
 * is fixed (WalArchive, StandbyEnv) and may go.
 */
public final class SourceArchives {
  private SourceArchives() {}

  /** A source read from an archive: its spec field, the source's name and the store the spec reads. */
  private record Reference(String field, String source, BackupSpec.S3 assumed) {}

  public static List<FieldProblem> check(
      CompositeRequest request, ClusterSpec spec, ObservedCluster observed) {
    if (observed.statefulSet().isPresent()) {
      return List.of();
    }
    List<FieldProblem> problems = new ArrayList<>();
    for (Reference reference : references(spec)) {
      boolean storeGiven = request.parent().at(pointer(reference.field())).has("s3");
      boolean prefixGiven =
          request.parent().at(pointer(reference.field()) + "/s3/prefix").isTextual();
      if (!prefixGiven) {
        check(request, reference, reference.field() + (storeGiven ? ".s3.prefix" : ".s3"))
            .ifPresent(problems::add);
      }
    }
    return problems;
  }

  private static List<Reference> references(ClusterSpec spec) {
    List<Reference> references = new ArrayList<>();
    BackupSpec backups = spec.backups();
    backups
        .cloneFrom()
        .ifPresent(
            clone ->
                clone
                    .s3()
                    .ifPresent(
                        s3 ->
                            references.add(
                                new Reference("spec.bootstrap.clone", clone.cluster(), s3))));
    backups
        .logicalRestore()
        .ifPresent(
            logical ->
                references.add(
                    new Reference("spec.bootstrap.logical", logical.cluster(), logical.s3())));
    spec.standby()
        .ifPresent(
            standby ->
                standby
                    .archive()
                    .ifPresent(
                        s3 ->
                            references.add(new Reference("spec.standby", standby.cluster(), s3))));
    return references;
  }

  private static Optional<FieldProblem> check(
      CompositeRequest request, Reference reference, String field) {
    Optional<BackupSpec.S3> actual = archiveOf(request, reference.source());
    if (actual.isEmpty()) {
      return Optional.of(
          new FieldProblem(
              field,
              "PostgresCluster "
                  + reference.source()
                  + " is not in namespace "
                  + request.namespace()
                  + " (gone, or restored under its own name), so its archive is not known: give the "
                  + "source's store with prefix: its archive, as its status.backup.location showed ("
                  + reference.assumed().prefix()
                  + "/<uid>; s3://"
                  + reference.assumed().bucket()
                  + "/"
                  + reference.assumed().prefix()
                  + "/ holds one folder per incarnation), or "
                  + reference.assumed().prefix()
                  + " for a cluster created before each incarnation had an archive of its own"));
    }
    if (actual.get().url().equals(reference.assumed().url())) {
      return Optional.empty();
    }
    return Optional.of(
        new FieldProblem(
            field,
            "PostgresCluster "
                + reference.source()
                + " archives into "
                + actual.get().url()
                + ", not "
                + reference.assumed().url()
                + ": give the source's store with prefix: "
                + actual.get().prefix()
                + " (its status.backup.location)"));
  }

  /** The archive of the namespace's cluster {@code source}, when the hook sees one that archives. */
  private static Optional<BackupSpec.S3> archiveOf(CompositeRequest request, String source) {
    return request.related().entries(PrefixClaims.API_VERSION, PrefixClaims.KIND).stream()
        // A cluster created again under its source's name is not that source: the source is gone.
        .filter(
            entry ->
                entry.namespace().equals(request.namespace())
                    && entry.name().equals(source)
                    && !source.equals(request.name()))
        .findFirst()
        .flatMap(entry -> SpecReader.read(entry.object()).spec().backups().backup())
        .map(BackupSpec.Backup::s3);
  }

  /** {@code spec.bootstrap.clone} as a JSON pointer into the parent. */
  private static String pointer(String field) {
    return "/" + field.replace('.', '/');
  }
}
