package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.bool;
import static dev.metahooks.controllers.postgres.spec.SpecFields.integer;
import static dev.metahooks.controllers.postgres.spec.SpecFields.oneOf;
import static dev.metahooks.controllers.postgres.spec.SpecFields.required;
import static dev.metahooks.controllers.postgres.spec.SpecFields.string;

import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.kube.FieldReader;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads {@code spec.backup} and {@code spec.bootstrap} with {@link SpecFields}' rules (same defaults and problem
 * messages as the rest of the spec).
 */
public final class BackupSpecReader {
  public static final int MAX_ON_DEMAND = 32;

  /** {@code <n>.backup-<name>} fits in 63 with a cluster name of 40. */
  public static final int MAX_ON_DEMAND_NAME = 15;

  public static final String DEFAULT_JOB_IMAGE = "registry.k8s.io/kubectl:v1.31.0";

  /**
   * pg_dump, pg_restore, psql and the AWS CLI in one image (the image Zalando's operator runs its logical backups
   * with; its release v1.15.1 of December 2025 names this tag in charts/postgres-operator/values.yaml:367). Its
   * logical-backup/Dockerfile installs the newest PostgreSQL 13 to 17 clients from apt.postgresql.org when the
   * image is built, so this one, built for that release, has clients with the August 2025 fixes of pg_dump and
   * pg_restore (CVE-2025-8714, CVE-2025-8715: 17.6, 16.10, 15.14, 14.19, 13.22 and later), which v1.14.0, built in
   * December 2024 from the same Dockerfile, has not.
   */
  public static final String DEFAULT_LOGICAL_IMAGE =
      "ghcr.io/zalando/postgres-operator/logical-backup:v1.15.1";

  public static final DateTimeFormatter RECOVERY_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssxxx");

  public static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  public static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
  public static final Pattern ENDPOINT = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?");
  static final Pattern REGION = Pattern.compile("[a-z0-9-]+");
  public static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
  public static final Pattern CRON_FIELD = Pattern.compile("[0-9*/,-]+|[A-Za-z]{3}(-[A-Za-z]{3})?");
  public static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?");
  public static final Pattern BACKUP_STAMP = Pattern.compile("[0-9]{8}T[0-9]{6}Z");

  private final String namespace;
  private final DefaultArchive archive;

  private BackupSpecReader(String namespace, DefaultArchive archive) {
    this.namespace = namespace;
    this.archive = archive;
  }

  /** Reads the parent's spec; without a prefix, the cluster archives where {@code archive} says. */
  public static BackupSpec read(FieldReader spec, String namespace, DefaultArchive archive) {
    return new BackupSpecReader(namespace, archive).read(spec);
  }

  private BackupSpec read(FieldReader spec) {
    Optional<BackupSpec.Backup> backup = spec.optionalObject("backup").map(this::backup);
    FieldReader bootstrap = spec.objectOrEmpty("bootstrap");
    Optional<BackupSpec.S3> store = backup.map(BackupSpec.Backup::s3);
    Optional<BackupSpec.Clone> clone =
        bootstrap.optionalObject("clone").map(given -> clone(given, store));
    Optional<BackupSpec.LogicalRestore> logical =
        bootstrap.optionalObject("logical").map(given -> logicalRestore(given, store));
    if (clone.isPresent() && logical.isPresent()) {
      bootstrap
          .problems()
          .add(
              bootstrap.path(),
              "clone and logical exclude each other: a clone already has the source's data");
    }
    backup.ifPresent(
        own -> {
          Optional<BackupSpec.S3> source =
              clone
                  .flatMap(BackupSpec.Clone::s3)
                  .or(() -> logical.map(BackupSpec.LogicalRestore::s3));
          source
              .filter(from -> from.overlaps(own.s3()))
              .ifPresent(
                  from ->
                      spec.objectOrEmpty("backup")
                          .objectOrEmpty("s3")
                          .report(
                              "prefix",
                              own.s3().url()
                                  + " overlaps the archive this cluster is filled from ("
                                  + from.url()
                                  + "); a cluster archives into a prefix of its own, or its retention would delete the source's backups"));
        });
    return new BackupSpec(backup, clone, logical);
  }

  private BackupSpec.Backup backup(FieldReader backup) {
    FieldReader store = backup.objectOrEmpty("s3");
    BackupSpec.S3 s3 =
        s3(
            store,
            archive.prefix(store.get("bucket") == null ? "" : store.get("bucket").asText("")));
    String schedule = schedule(backup, "schedule", BackupSpec.DEFAULT_SCHEDULE);
    FieldReader retention = backup.objectOrEmpty("retention");
    int baseBackups = integer(retention, "baseBackups", BackupSpec.DEFAULT_BASE_BACKUPS, 2, 1000);
    List<BackupSpec.OnDemand> onDemand = onDemand(backup);
    Optional<BackupSpec.Logical> logical = backup.optionalObject("logical").map(this::logical);
    if (onDemand.stream().anyMatch(o -> o.method().equals("logical")) && logical.isEmpty()) {
      backup.report(
          "onDemand",
          "a logical on-demand backup needs spec.backup.logical (its image and retention)");
    }
    boolean finalBackup = bool(backup, "finalBackup", false, true);
    String jobImage = string(backup, "jobImage", DEFAULT_JOB_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.Backup(
        s3,
        schedule,
        baseBackups,
        onDemand,
        logical,
        finalBackup,
        jobImage,
        EncryptionReader.read(backup, true));
  }

  /** A store as {@code backup.s3} reads it (also the source archive of {@code spec.standby}). */
  static BackupSpec.S3 s3(FieldReader s3, String defaultPrefix) {
    String bucket = required(s3, "bucket", BUCKET, 63).orElse("");
    String prefix = string(s3, "prefix", defaultPrefix, PREFIX, 512);
    if (List.of(prefix.split("/")).stream().anyMatch(s -> s.equals(".") || s.equals(".."))) {
      s3.report("prefix", "must not contain . or .. segments");
    }
    String endpoint = string(s3, "endpoint", "", ENDPOINT, 253);
    String region = string(s3, "region", "", REGION, 64);
    if (endpoint.isEmpty() && region.isEmpty()) {
      s3.report(
          "region", "is required when no endpoint is given (AWS S3 needs the bucket's region)");
    }
    boolean pathStyle = bool(s3, "forcePathStyle", !endpoint.isEmpty(), false);
    if (pathStyle && endpoint.isEmpty()) {
      s3.report("forcePathStyle", "needs an endpoint (Spilo derives the addressing style from it)");
    }
    Optional<BackupSpec.Credentials> credentials =
        s3.optionalObject("credentials")
            .map(
                given ->
                    new BackupSpec.Credentials(
                        required(given, "secretName", SpecReader.SECRET_NAME, 253).orElse(null),
                        string(given, "accessKeyIdKey", "AWS_ACCESS_KEY_ID", SECRET_KEY, 253),
                        string(
                            given,
                            "secretAccessKeyKey",
                            "AWS_SECRET_ACCESS_KEY",
                            SECRET_KEY,
                            253)));
    return new BackupSpec.S3(bucket, prefix, endpoint, region, pathStyle, credentials);
  }

  /** Five cron fields (minute hour day-of-month month day-of-week), as Spilo's crontab and a CronJob take them. */
  private static String schedule(FieldReader container, String field, String fallback) {
    String schedule = string(container, field, fallback, null, 100);
    String[] fields = schedule.trim().split(" +");
    boolean valid = fields.length == 5 && CronSchedule.parse(schedule).isPresent();
    for (String f : fields) {
      valid &= CRON_FIELD.matcher(f).matches();
    }
    if (!valid) {
      container.report(field, "must be a cron schedule of five fields, such as \"0 1 * * *\"");
      return fallback;
    }
    return String.join(" ", fields);
  }

  private static List<BackupSpec.OnDemand> onDemand(FieldReader backup) {
    List<FieldReader> given = backup.optionalObjects("onDemand");
    if (given.size() > MAX_ON_DEMAND) {
      backup.report(
          "onDemand", "must have at most " + MAX_ON_DEMAND + " entries (remove old ones)");
    }
    List<BackupSpec.OnDemand> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (FieldReader entry : given) {
      Optional<String> name = required(entry, "name", SpecReader.CLUSTER_NAME, MAX_ON_DEMAND_NAME);
      String method = oneOf(entry, "method", "base", List.of("base", "logical"));
      if (name.isEmpty()) {
        continue;
      }
      if (!names.add(name.get())) {
        entry.report("name", "\"" + name.get() + "\" is listed twice");
      }
      entries.add(new BackupSpec.OnDemand(name.get(), method));
    }
    return List.copyOf(entries);
  }

  private BackupSpec.Logical logical(FieldReader logical) {
    String schedule = schedule(logical, "schedule", "30 2 * * *");
    FieldReader retention = logical.objectOrEmpty("retention");
    int count = integer(retention, "count", BackupSpec.DEFAULT_LOGICAL_COUNT, 1, 1000);
    String image = string(logical, "image", DEFAULT_LOGICAL_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.Logical(
        schedule, count, image, bool(logical, "postgresDatabase", false, false));
  }

  private BackupSpec.Clone clone(FieldReader clone, Optional<BackupSpec.S3> store) {
    String source =
        required(clone, "cluster", SpecReader.CLUSTER_NAME, SpecReader.MAX_NAME_LENGTH).orElse("");
    Optional<String> timestamp = Optional.empty();
    if (clone.isSet("timestamp")) {
      String text = string(clone, "timestamp", "", null, 64);
      try {
        timestamp =
            Optional.of(
                OffsetDateTime.parse(text)
                    .withOffsetSameInstant(ZoneOffset.UTC)
                    .format(RECOVERY_TIME));
      } catch (DateTimeParseException e) {
        clone.report(
            "timestamp", "must be an RFC 3339 time with a zone, such as 2026-11-30T10:00:00Z");
      }
    }
    if (clone.isSet("live")) {
      if (timestamp.isPresent()) {
        clone.report(
            "timestamp", "a live clone copies the source as it is now; remove timestamp or live");
      }
      FieldReader live = clone.objectOrEmpty("live");
      return new BackupSpec.Clone(
          source,
          timestamp,
          Optional.empty(),
          Optional.of(
              new BackupSpec.Live(
                  string(
                      live,
                      "host",
                      Names.serviceHost(Names.primaryService(source), namespace),
                      HOST,
                      253),
                  integer(live, "port", Spilo.POSTGRES_PORT, 1, 65535),
                  string(
                      live,
                      "secretName",
                      Names.replicationSecret(source),
                      SpecReader.SECRET_NAME,
                      253))),
          BackupSpec.Encryption.NONE);
    }
    return new BackupSpec.Clone(
        source,
        timestamp,
        Optional.of(sourceStore(clone, store, source)),
        Optional.empty(),
        EncryptionReader.read(clone, false));
  }

  private BackupSpec.LogicalRestore logicalRestore(
      FieldReader logical, Optional<BackupSpec.S3> store) {
    String source =
        required(logical, "cluster", SpecReader.CLUSTER_NAME, SpecReader.MAX_NAME_LENGTH)
            .orElse("");
    Optional<String> backup =
        logical.isSet("backup") ? required(logical, "backup", BACKUP_STAMP, 16) : Optional.empty();
    String image = string(logical, "image", DEFAULT_LOGICAL_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.LogicalRestore(
        source,
        sourceStore(logical, store, source),
        backup,
        image,
        bool(logical, "postgresDatabase", false, false));
  }

  /** The source's store: given here, or this cluster's store with the source's default prefix. */
  private BackupSpec.S3 sourceStore(
      FieldReader container, Optional<BackupSpec.S3> store, String source) {
    String defaultPrefix = namespace + "/" + source;
    if (container.isSet("s3")) {
      return s3(container.objectOrEmpty("s3"), defaultPrefix);
    }
    if (store.isEmpty()) {
      container.report(
          "s3", "is required when spec.backup.s3 is not set (where are the source's backups?)");
      return new BackupSpec.S3("", defaultPrefix, "", "", false, Optional.empty());
    }
    BackupSpec.S3 own = store.get();
    return new BackupSpec.S3(
        own.bucket(),
        defaultPrefix,
        own.endpoint(),
        own.region(),
        own.forcePathStyle(),
        own.credentials());
  }
}
