package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.integer;
import static dev.metahooks.controllers.postgres.spec.SpecFields.required;
import static dev.metahooks.controllers.postgres.spec.SpecFields.string;

import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.kube.FieldReader;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code spec.standby}. Spilo configures a standby only when no clone is asked for (configure_spilo.py:614-636
 * at 4.0-p3: the {@code STANDBY_} store is read in the branch without {@code CLONE_METHOD}), so a standby excludes
 * {@code bootstrap}; its replicas are made by Spilo's own methods ({@code bootstrap_standby_with_wale},
 * {@code basebackup_fast_xlog}, configure_spilo.py:174-194), which do not place {@code pg_wal} on a WAL volume.
 */
public final class StandbySpecReader {
  private StandbySpecReader() {}

  public static Optional<StandbySpec> read(
      FieldReader spec, String namespace, Optional<BackupSpec.Backup> backup) {
    if (!spec.isSet("standby")) {
      return Optional.empty();
    }
    FieldReader standby = spec.objectOrEmpty("standby");
    PodSchedulingReader.onlyFields(standby, Set.of("cluster", "s3", "host", "port", "credentials"));
    String source =
        required(standby, "cluster", SpecReader.CLUSTER_NAME, SpecReader.MAX_NAME_LENGTH)
            .orElse("");
    boolean archive = standby.isSet("s3");
    boolean streaming = standby.isSet("host");
    if (archive == streaming) {
      standby
          .problems()
          .add(
              standby.path(),
              "needs exactly one of s3 (follow the source's WAL archive) and host "
                  + "(stream from the source's primary)");
    }
    if (!streaming && standby.isSet("port")) {
      standby.report("port", "needs host");
    }
    Optional<BackupSpec.S3> store =
        archive
            ? Optional.of(
                BackupSpecReader.s3(standby.objectOrEmpty("s3"), namespace + "/" + source))
            : Optional.empty();
    Optional<StandbySpec.Streaming> stream =
        streaming && !archive
            ? Optional.of(
                new StandbySpec.Streaming(
                    string(standby, "host", "", BackupSpecReader.HOST, 253),
                    integer(standby, "port", Spilo.POSTGRES_PORT, 1, 65535)))
            : Optional.empty();
    FieldReader credentials = standby.objectOrEmpty("credentials");
    PodSchedulingReader.onlyFields(credentials, Set.of("superuserSecret", "replicationSecret"));
    String superuser =
        string(
            credentials,
            "superuserSecret",
            Names.superuserSecret(source),
            SpecReader.SECRET_NAME,
            253);
    String replication =
        string(
            credentials,
            "replicationSecret",
            Names.replicationSecret(source),
            SpecReader.SECRET_NAME,
            253);
    checkAlone(spec, standby);
    store.ifPresent(
        from ->
            backup
                .filter(own -> own.s3().overlaps(from))
                .ifPresent(
                    own ->
                        spec.objectOrEmpty("backup")
                            .objectOrEmpty("s3")
                            .report(
                                "prefix",
                                own.s3().url()
                                    + " overlaps the archive this standby follows ("
                                    + from.url()
                                    + "); a cluster archives into a prefix of its own, never into its source's")));
    return Optional.of(new StandbySpec(source, store, stream, superuser, replication));
  }

  /** What a standby cannot be combined with. */
  private static void checkAlone(FieldReader spec, FieldReader standby) {
    if (spec.isSet("bootstrap")) {
      standby
          .problems()
          .add(
              standby.path(),
              "cannot be used with spec.bootstrap: a standby is filled from its "
                  + "source (Spilo reads STANDBY_* only without a clone)");
    }
    if (spec.get("storage") != null
        && spec.get("storage").isObject()
        && spec.objectOrEmpty("storage").isSet("wal")) {
      standby
          .problems()
          .add(
              standby.path(),
              "cannot be used with spec.storage.wal: a standby's members are made by "
                  + "Spilo's restore and base backup scripts, which keep pg_wal in the data directory");
    }
  }
}
