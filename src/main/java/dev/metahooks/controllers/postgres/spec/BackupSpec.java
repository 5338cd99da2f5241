package dev.metahooks.controllers.postgres.spec;

import java.util.List;
import java.util.Optional;

/**
 * {@code spec.backup} and {@code spec.bootstrap}: where a cluster's backups go (an S3-compatible store), when base
 * backups run and how many are kept, the on-demand and logical backups, a final backup on deletion, and how a
 * new cluster is first filled (a clone of another cluster's backups or of a running cluster). Absent = off.
 */
public record BackupSpec(
    Optional<Backup> backup, Optional<Clone> cloneFrom, Optional<LogicalRestore> logicalRestore) {
  public static final BackupSpec NONE =
      new BackupSpec(Optional.empty(), Optional.empty(), Optional.empty());

  /** Spilo's own default base backup schedule (configure_spilo.py). */
  public static final String DEFAULT_SCHEDULE = "0 1 * * *";

  public static final int DEFAULT_BASE_BACKUPS = 5;
  public static final int DEFAULT_LOGICAL_COUNT = 7;

  /**
   * An S3-compatible store. {@code prefix} is where this cluster's objects go inside the bucket, without leading
   * or trailing slash; {@code credentials} empty: the pod's own identity (an instance profile, IRSA).
   */
  public record S3(
      String bucket,
      String prefix,
      String endpoint,
      String region,
      boolean forcePathStyle,
      Optional<Credentials> credentials) {
    /** The prefix as an S3 URL: {@code s3://bucket/prefix}. */
    public String url() {
      return "s3://" + bucket + "/" + prefix;
    }

    /** Same bucket, and one prefix equal to or inside the other: the two would share an archive. */
    public boolean overlaps(S3 other) {
      return bucket.equals(other.bucket)
          && (prefix.equals(other.prefix)
              || prefix.startsWith(other.prefix + "/")
              || other.prefix.startsWith(prefix + "/"));
    }
  }

  /** Keys of the user's Secret that hold the access key id and the secret access key. */
  public record Credentials(String secretName, String accessKeyIdKey, String secretAccessKeyKey) {}

  /** One on-demand backup: {@code base} (WAL-G, through Spilo's backup script on the primary) or {@code logical}. */
  public record OnDemand(String name, String method) {}

  /**
   * Scheduled pg_dump of every database ({@code postgresDatabase}: the {@code postgres} database too),
   * {@code count} complete dumps kept.
   */
  public record Logical(String schedule, int count, String image, boolean postgresDatabase) {}

  public record Backup(
      S3 s3,
      String schedule,
      int baseBackups,
      List<OnDemand> onDemand,
      Optional<Logical> logical,
      boolean finalBackup,
      String jobImage,
      Encryption encryption) {}

  /** One key of a Secret in the cluster's namespace. */
  public record SecretKey(String secretName, String key) {}

  /**
   * Encryption at rest. WAL-G's own, of base backups and WAL: a libsodium key ({@code libsodiumTransform}: how the
   * Secret's value becomes the 32-byte key, none, base64 or hex) or a PGP key with its passphrase. And the store's:
   * {@code serverSide} empty (Spilo's default), {@code AES256} or {@code aws:kms} with {@code kmsKeyId}.
   */
  public record Encryption(
      Optional<SecretKey> libsodium,
      String libsodiumTransform,
      Optional<SecretKey> pgp,
      Optional<SecretKey> pgpPassphrase,
      String serverSide,
      String kmsKeyId) {
    public static final Encryption NONE =
        new Encryption(Optional.empty(), "none", Optional.empty(), Optional.empty(), "", "");
  }

  /**
   * A clone, first bootstrap only: from the source cluster's backups ({@code s3}: its store and prefix) up to
   * {@code timestamp} (empty: the latest), or, with {@code live}, by a base backup from the running source;
   * {@code encryption}: the key the source's archive is encrypted with (WAL-G's own only).
   */
  public record Clone(
      String cluster,
      Optional<String> timestamp,
      Optional<S3> s3,
      Optional<Live> live,
      Encryption encryption) {}

  /** A running source: host and port, and a Secret with keys {@code username} and {@code password}. */
  public record Live(String host, int port, String secretName) {}

  /**
   * Restore a logical backup of another cluster into this one, once it runs; {@code backup} empty: the newest;
   * {@code postgresDatabase}: its {@code postgres} database too, into this cluster's.
   */
  public record LogicalRestore(
      String cluster, S3 s3, Optional<String> backup, String image, boolean postgresDatabase) {}
}
