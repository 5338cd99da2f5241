package dev.metahooks.controllers.postgres.children.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spilo's variables for continuous WAL archiving and scheduled base backups with WAL-G ({@code spec.backup}), and
 * for a first bootstrap from another cluster ({@code spec.bootstrap.clone}, Spilo's {@code CLONE_*}). Each
 * variable is one Spilo reads (ENVIRONMENT.rst, or configure_spilo.py where that is silent);
 * docs/postgrescluster/backups-and-restore.md lists them with their meaning and source. Credentials only ever come from the user's Secret
 * ({@code secretKeyRef}), never as a value.
 */
public final class WalArchive {
  private WalArchive() {}

  /** The variables, in a fixed order; none when neither backups nor a clone are configured. */
  public static List<ObjectNode> env(BackupSpec backups) {
    List<ObjectNode> env = new ArrayList<>();
    backups
        .backup()
        .ifPresent(
            backup -> {
              value(env, "USE_WALG_BACKUP", "true");
              value(env, "USE_WALG_RESTORE", "true");
              store(env, "", backup.s3());
              value(env, "BACKUP_SCHEDULE", backup.schedule());
              value(env, "BACKUP_NUM_TO_RETAIN", String.valueOf(backup.baseBackups()));
              // A WAL segment already in the archive with other contents is never overwritten
              // (wal-g
              // internal/databases/postgres/wal_push_handler.go:27,52): archiving fails loudly
              // instead of replacing
              // another timeline's or another incarnation's WAL.
              value(env, "WALG_PREVENT_WAL_OVERWRITE", "true");
              encryption(env, "", backup.encryption());
            });
    backups
        .cloneFrom()
        .ifPresent(
            clone -> {
              if (clone.live().isPresent()) {
                BackupSpec.Live live = clone.live().get();
                value(env, "CLONE_METHOD", "CLONE_WITH_BASEBACKUP");
                value(env, "CLONE_SCOPE", clone.cluster());
                value(env, "CLONE_HOST", live.host());
                value(env, "CLONE_PORT", String.valueOf(live.port()));
                secret(env, "CLONE_USER", live.secretName(), "username");
                secret(env, "CLONE_PASSWORD", live.secretName(), "password");
              } else {
                value(env, "CLONE_METHOD", "CLONE_WITH_WALE");
                value(env, "CLONE_SCOPE", clone.cluster());
                value(env, "CLONE_USE_WALG_RESTORE", "true");
                store(env, "CLONE_", clone.s3().orElseThrow());
                clone.timestamp().ifPresent(time -> value(env, "CLONE_TARGET_TIME", time));
                encryption(env, "CLONE_", clone.encryption());
              }
            });
    return env;
  }

  /**
   * The store: its prefix, endpoint (and from it the addressing style), region and credentials. Spilo derives
   * AWS_S3_FORCE_PATH_STYLE from the {@code +path} or {@code +virtualhost} in WALE_S3_ENDPOINT.
   */
  public static void store(List<ObjectNode> env, String prefix, BackupSpec.S3 s3) {
    value(env, prefix + "WALE_S3_PREFIX", s3.url());
    if (!s3.endpoint().isEmpty()) {
      value(env, prefix + "AWS_ENDPOINT", s3.endpoint());
      value(env, prefix + "WALE_S3_ENDPOINT", waleEndpoint(s3));
    }
    if (!s3.region().isEmpty()) {
      value(env, prefix + "AWS_REGION", s3.region());
    }
    s3.credentials()
        .ifPresent(
            credentials -> {
              secret(
                  env,
                  prefix + "AWS_ACCESS_KEY_ID",
                  credentials.secretName(),
                  credentials.accessKeyIdKey());
              secret(
                  env,
                  prefix + "AWS_SECRET_ACCESS_KEY",
                  credentials.secretName(),
                  credentials.secretAccessKeyKey());
            });
  }

  /**
   * Encryption at rest: WAL-G's key from the user's Secret (WALG_LIBSODIUM_KEY and its transform, or WALG_PGP_KEY
   * and its passphrase), and the store's server-side encryption (WALG_S3_SSE, WALG_S3_SSE_KMS_ID). Spilo writes each
   * into WAL-G's env dir (configure_spilo.py:837-858 at 4.0-p3, s3_names and walg_names, read with the
   * {@code CLONE_} prefix for a clone, :862-865); WAL-G reads them (internal/config/config.go:67-73, 449-451).
   * Without serverSide, Spilo's own default stays: AES256 on AWS S3, none with an endpoint (configure_spilo.py:888-890,
   * 912-913).
   */
  static void encryption(List<ObjectNode> env, String prefix, BackupSpec.Encryption encryption) {
    encryption
        .libsodium()
        .ifPresent(
            key -> {
              secret(env, prefix + "WALG_LIBSODIUM_KEY", key.secretName(), key.key());
              value(env, prefix + "WALG_LIBSODIUM_KEY_TRANSFORM", encryption.libsodiumTransform());
            });
    encryption
        .pgp()
        .ifPresent(key -> secret(env, prefix + "WALG_PGP_KEY", key.secretName(), key.key()));
    encryption
        .pgpPassphrase()
        .ifPresent(
            key -> secret(env, prefix + "WALG_PGP_KEY_PASSPHRASE", key.secretName(), key.key()));
    if (!encryption.serverSide().isEmpty()) {
      value(env, prefix + "WALG_S3_SSE", encryption.serverSide());
    }
    if (!encryption.kmsKeyId().isEmpty()) {
      value(env, prefix + "WALG_S3_SSE_KMS_ID", encryption.kmsKeyId());
    }
  }

  /** {@code https+path://host:port}: WAL-E's endpoint format, the port always given. */
  public static String waleEndpoint(BackupSpec.S3 s3) {
    String endpoint = s3.endpoint();
    int schemeEnd = endpoint.indexOf("://");
    String scheme = endpoint.substring(0, schemeEnd);
    String hostPort = endpoint.substring(schemeEnd + 3);
    if (!hostPort.contains(":")) {
      hostPort += scheme.equals("https") ? ":443" : ":80";
    }
    return scheme + (s3.forcePathStyle() ? "+path" : "+virtualhost") + "://" + hostPort;
  }

  /** The {@code CLONE_*} variables alone: what {@code spec.bootstrap.clone} renders. */
  public static List<ObjectNode> cloneEnv(BackupSpec backups) {
    return env(new BackupSpec(Optional.empty(), backups.cloneFrom(), Optional.empty()));
  }

  /** One variable with a plain value: the archive's settings and a standby's ({@code STANDBY_*}) alike. */
  public static void value(List<ObjectNode> env, String name, String value) {
    env.add(Json.object().put("name", name).put("value", value));
  }

  private static void secret(List<ObjectNode> env, String name, String secretName, String key) {
    ObjectNode variable = Json.object().put("name", name);
    variable
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", secretName)
        .put("key", key);
    env.add(variable);
  }
}
