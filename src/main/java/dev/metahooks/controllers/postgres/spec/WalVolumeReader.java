package dev.metahooks.controllers.postgres.spec;

import dev.metahooks.kube.FieldReader;
import java.util.Optional;
import java.util.Set;

/** Reads {@code spec.storage.wal}: a positive size (required) and an optional storage class. */
public final class WalVolumeReader {
  private WalVolumeReader() {}

  public static Optional<WalVolume> read(FieldReader spec) {
    if (spec.get("storage") == null || !spec.get("storage").isObject()) {
      return Optional.empty(); // the storage reader says what is wrong with it
    }
    FieldReader storage = spec.objectOrEmpty("storage");
    if (!storage.isSet("wal")) {
      return Optional.empty();
    }
    FieldReader wal = storage.objectOrEmpty("wal");
    PodSchedulingReader.onlyFields(wal, Set.of("size", "storageClassName"));
    Optional<String> size = SpecFields.required(wal, "size", null, 32);
    boolean validSize =
        size.isPresent()
            && Quantities.valid(size.get())
            && Quantities.bytes(size.get()).signum() > 0;
    if (size.isPresent() && !validSize) {
      wal.report("size", "must be a positive quantity such as 1Gi");
    }
    Optional<String> storageClass = wal.optionalString("storageClassName");
    storageClass
        .map(QualifiedNames::subdomainProblem)
        .ifPresent(problem -> wal.report("storageClassName", problem));
    // A clone restores with WAL-G's backup-fetch, which puts pg_wal in the data directory (Spilo's
    // clone_with_wale.py).
    if (spec.objectOrEmpty("bootstrap").isSet("clone")) {
      wal.problems()
          .add(
              wal.path(),
              "cannot be used with spec.bootstrap.clone: the clone restores pg_wal into the "
                  + "data directory; clone without it");
    }
    // The claim template carries the size as the API server stores it.
    return size.map(
        given ->
            new WalVolume(validSize ? Quantities.stored(given) : given, storageClass.orElse(null)));
  }
}
