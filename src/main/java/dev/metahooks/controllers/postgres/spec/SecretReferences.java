package dev.metahooks.controllers.postgres.spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Secrets of the user's that a spec makes pods or Jobs read through {@code secretKeyRef}, each with the field
 * that names it and the keys read: store credentials, WAL-G's encryption keys, a live clone's login. The TLS Secret
 * (mounted, checked by {@code Tls}) and a standby's source Secrets (copied once, {@code StandbyCredentials}) are
 * given the same way but judged where they are used.
 */
public final class SecretReferences {
  /**
   * One Secret read under {@code field}; {@code bootstrapOnly}: read when the cluster is first created (a clone's
   * source), after which the spec cannot change it.
   */
  public record Reference(String field, String secret, List<String> keys, boolean bootstrapOnly) {}

  private final List<Reference> references = new ArrayList<>();

  private SecretReferences() {}

  /** Every Secret {@code spec} names, once. */
  public static List<Reference> of(ClusterSpec spec) {
    SecretReferences found = new SecretReferences();
    BackupSpec backups = spec.backups();
    backups
        .backup()
        .ifPresent(
            backup -> {
              found.store("spec.backup.s3", backup.s3(), false);
              found.encryption("spec.backup.encryption", backup.encryption(), false);
            });
    backups
        .cloneFrom()
        .ifPresent(
            clone -> {
              clone.s3().ifPresent(s3 -> found.store("spec.bootstrap.clone.s3", s3, true));
              found.encryption("spec.bootstrap.clone.encryption", clone.encryption(), true);
              clone
                  .live()
                  .ifPresent(
                      live ->
                          found.add(
                              "spec.bootstrap.clone.live.secretName",
                              live.secretName(),
                              true,
                              "username",
                              "password"));
            });
    backups
        .logicalRestore()
        .ifPresent(logical -> found.store("spec.bootstrap.logical.s3", logical.s3(), false));
    spec.standby()
        .flatMap(StandbySpec::archive)
        .ifPresent(s3 -> found.store("spec.standby.s3", s3, false));
    return found.distinct();
  }

  /** Whether the spec names any Secret of the user's, the TLS Secret and a standby's source Secrets included. */
  public static boolean any(ClusterSpec spec) {
    return !of(spec).isEmpty() || spec.tls().isPresent() || spec.standby().isPresent();
  }

  private void store(String field, BackupSpec.S3 s3, boolean bootstrapOnly) {
    s3.credentials()
        .ifPresent(
            credentials ->
                add(
                    field + ".credentials",
                    credentials.secretName(),
                    bootstrapOnly,
                    credentials.accessKeyIdKey(),
                    credentials.secretAccessKeyKey()));
  }

  private void encryption(String field, BackupSpec.Encryption encryption, boolean bootstrapOnly) {
    encryption
        .libsodium()
        .ifPresent(key -> add(field + ".libsodium", key.secretName(), bootstrapOnly, key.key()));
    encryption
        .pgp()
        .ifPresent(key -> add(field + ".pgp", key.secretName(), bootstrapOnly, key.key()));
    encryption
        .pgpPassphrase()
        .ifPresent(key -> add(field + ".pgp", key.secretName(), bootstrapOnly, key.key()));
  }

  private void add(String field, String secret, boolean bootstrapOnly, String... keys) {
    Optional.ofNullable(secret)
        .filter(name -> !name.isEmpty())
        .ifPresent(
            name ->
                references.add(
                    new Reference(
                        field, name, List.of(keys).stream().distinct().toList(), bootstrapOnly)));
  }

  /**
   * One reference per Secret: the first field naming it, every key read of it, and read at bootstrap only if every
   * use of it is.
   */
  private List<Reference> distinct() {
    Map<String, Reference> bySecret = new LinkedHashMap<>();
    for (Reference reference : references) {
      bySecret.merge(
          reference.secret(),
          reference,
          (first, later) -> {
            List<String> keys = new ArrayList<>(first.keys());
            later.keys().stream().filter(key -> !keys.contains(key)).forEach(keys::add);
            return new Reference(
                first.field(),
                first.secret(),
                List.copyOf(keys),
                first.bootstrapOnly() && later.bootstrapOnly());
          });
    }
    return List.copyOf(bySecret.values());
  }
}
