package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * Reads {@code spec.backup} and {@code spec.bootstrap} with {@link SpecReader}'s field readers (same defaults and
 * problem messages as the rest of the spec).
 */
final class BackupSpecReader {
  static final int MAX_ON_DEMAND = 32;
  /** {@code <n>-backup-<name>} fits in 63 with a cluster name of 40. */
  static final int MAX_ON_DEMAND_NAME = 15;
  static final String DEFAULT_JOB_IMAGE = "registry.k8s.io/kubectl:v1.31.0";
  /** pg_dump, psql and the AWS CLI in one image (the image Zalando's operator runs its logical backups with). */
  static final String DEFAULT_LOGICAL_IMAGE = "ghcr.io/zalando/postgres-operator/logical-backup:v1.14.0";
  static final DateTimeFormatter RECOVERY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssxxx");

  static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
  static final Pattern ENDPOINT = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?");
  static final Pattern REGION = Pattern.compile("[a-z0-9-]+");
  static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
  static final Pattern CRON_FIELD = Pattern.compile("[0-9*/,-]+|[A-Za-z]{3}(-[A-Za-z]{3})?");
  static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?");
  static final Pattern BACKUP_STAMP = Pattern.compile("[0-9]{8}T[0-9]{6}Z");

  private final SpecReader reader;
  private final String namespace;
  private final String name;

  private BackupSpecReader(SpecReader reader, String namespace, String name) {
    this.reader = reader;
    this.namespace = namespace;
    this.name = name;
  }

  /** Reads the parent's spec (its namespace and name give the default prefix {@code <namespace>/<name>}). */
  static BackupSpec read(SpecReader reader, ObjectNode spec, String namespace, String name) {
    return new BackupSpecReader(reader, namespace, name).read(spec);
  }

  private BackupSpec read(ObjectNode spec) {
    JsonNode backupNode = spec.get("backup");
    Optional<BackupSpec.Backup> backup = backupNode == null || backupNode.isNull() ? Optional.empty()
        : Optional.of(backup(reader.object(backupNode, "spec.backup")));
    ObjectNode bootstrap = reader.object(spec.get("bootstrap"), "spec.bootstrap");
    Optional<BackupSpec.S3> store = backup.map(BackupSpec.Backup::s3);
    Optional<BackupSpec.Clone> clone = present(bootstrap, "clone")
        ? Optional.of(clone(reader.object(bootstrap.get("clone"), "spec.bootstrap.clone"), store)) : Optional.empty();
    Optional<BackupSpec.LogicalRestore> logical = present(bootstrap, "logical")
        ? Optional.of(logicalRestore(reader.object(bootstrap.get("logical"), "spec.bootstrap.logical"), store))
        : Optional.empty();
    if (clone.isPresent() && logical.isPresent()) {
      reader.problem("spec.bootstrap", "clone and logical exclude each other: a clone already has the source's data");
    }
    return new BackupSpec(backup, clone, logical);
  }

  private static boolean present(ObjectNode object, String field) {
    return object.get(field) != null && !object.get(field).isNull();
  }

  private BackupSpec.Backup backup(ObjectNode backup) {
    String selfPrefix = namespace + "/" + name;
    BackupSpec.S3 s3 = s3(reader.object(backup.get("s3"), "spec.backup.s3"), "spec.backup.s3", selfPrefix, true);
    String schedule = schedule(backup, "schedule", "spec.backup.schedule", BackupSpec.DEFAULT_SCHEDULE);
    ObjectNode retention = reader.object(backup.get("retention"), "spec.backup.retention");
    int baseBackups = reader.integer(retention, "baseBackups", "spec.backup.retention.baseBackups",
        BackupSpec.DEFAULT_BASE_BACKUPS, 2, 1000);
    List<BackupSpec.OnDemand> onDemand = onDemand(backup.get("onDemand"));
    Optional<BackupSpec.Logical> logical = present(backup, "logical")
        ? Optional.of(logical(reader.object(backup.get("logical"), "spec.backup.logical"))) : Optional.empty();
    if (onDemand.stream().anyMatch(o -> o.method().equals("logical")) && logical.isEmpty()) {
      reader.problem("spec.backup.onDemand", "a logical on-demand backup needs spec.backup.logical (its image and retention)");
    }
    boolean finalBackup = reader.bool(backup, "finalBackup", "spec.backup.finalBackup", false, true);
    String jobImage = reader.string(backup, "jobImage", "spec.backup.jobImage", DEFAULT_JOB_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.Backup(s3, schedule, baseBackups, onDemand, logical, finalBackup, jobImage);
  }

  private BackupSpec.S3 s3(ObjectNode s3, String path, String defaultPrefix, boolean bucketRequired) {
    String bucket = reader.string(s3, "bucket", path + ".bucket", bucketRequired ? null : "", BUCKET, 63);
    String prefix = reader.string(s3, "prefix", path + ".prefix", defaultPrefix, PREFIX, 512);
    if (prefix != null && List.of(prefix.split("/")).stream().anyMatch(s -> s.equals(".") || s.equals(".."))) {
      reader.problem(path + ".prefix", "must not contain . or .. segments");
    }
    String endpoint = reader.string(s3, "endpoint", path + ".endpoint", "", ENDPOINT, 253);
    String region = reader.string(s3, "region", path + ".region", "", REGION, 64);
    if (endpoint.isEmpty() && region.isEmpty()) {
      reader.problem(path + ".region", "is required when no endpoint is given (AWS S3 needs the bucket's region)");
    }
    boolean pathStyle = reader.bool(s3, "forcePathStyle", path + ".forcePathStyle", !endpoint.isEmpty(), false);
    if (pathStyle && endpoint.isEmpty()) {
      reader.problem(path + ".forcePathStyle", "needs an endpoint (Spilo derives the addressing style from it)");
    }
    Optional<BackupSpec.Credentials> credentials = Optional.empty();
    if (present(s3, "credentials")) {
      ObjectNode given = reader.object(s3.get("credentials"), path + ".credentials");
      credentials = Optional.of(new BackupSpec.Credentials(
          reader.string(given, "secretName", path + ".credentials.secretName", null, SpecReader.SECRET_NAME, 253),
          reader.string(given, "accessKeyIdKey", path + ".credentials.accessKeyIdKey", "AWS_ACCESS_KEY_ID", SECRET_KEY, 253),
          reader.string(given, "secretAccessKeyKey", path + ".credentials.secretAccessKeyKey", "AWS_SECRET_ACCESS_KEY",
              SECRET_KEY, 253)));
    }
    return new BackupSpec.S3(bucket == null ? "" : bucket, prefix == null ? defaultPrefix : prefix, endpoint, region,
        pathStyle, credentials);
  }

  /** Five cron fields (minute hour day-of-month month day-of-week), as Spilo's crontab and a CronJob take them. */
  private String schedule(ObjectNode container, String field, String path, String fallback) {
    String schedule = reader.string(container, field, path, fallback, null, 100);
    String[] fields = schedule.trim().split(" +");
    boolean valid = fields.length == 5 && CronSchedule.parse(schedule).isPresent();
    for (String f : fields) {
      valid &= CRON_FIELD.matcher(f).matches();
    }
    if (!valid) {
      reader.problem(path, "must be a cron schedule of five fields, such as \"0 1 * * *\"");
      return fallback;
    }
    return String.join(" ", fields);
  }

  private List<BackupSpec.OnDemand> onDemand(JsonNode node) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      reader.problem("spec.backup.onDemand", "must be a list");
      return List.of();
    }
    if (node.size() > MAX_ON_DEMAND) {
      reader.problem("spec.backup.onDemand", "must have at most " + MAX_ON_DEMAND + " entries (remove old ones)");
    }
    List<BackupSpec.OnDemand> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String path = "spec.backup.onDemand[" + i + "]";
      ObjectNode entry = reader.object(node.get(i), path);
      String name = reader.string(entry, "name", path + ".name", null, SpecReader.CLUSTER_NAME, MAX_ON_DEMAND_NAME);
      String method = reader.oneOf(entry, "method", path + ".method", "base", List.of("base", "logical"));
      if (name == null) {
        continue;
      }
      if (!names.add(name)) {
        reader.problem(path + ".name", "\"" + name + "\" is listed twice");
      }
      entries.add(new BackupSpec.OnDemand(name, method));
    }
    return List.copyOf(entries);
  }

  private BackupSpec.Logical logical(ObjectNode logical) {
    String schedule = schedule(logical, "schedule", "spec.backup.logical.schedule", "30 2 * * *");
    ObjectNode retention = reader.object(logical.get("retention"), "spec.backup.logical.retention");
    int count = reader.integer(retention, "count", "spec.backup.logical.retention.count", BackupSpec.DEFAULT_LOGICAL_COUNT,
        1, 1000);
    String image = reader.string(logical, "image", "spec.backup.logical.image", DEFAULT_LOGICAL_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.Logical(schedule, count, image);
  }

  private BackupSpec.Clone clone(ObjectNode clone, Optional<BackupSpec.S3> store) {
    String source = reader.string(clone, "cluster", "spec.bootstrap.clone.cluster", null, SpecReader.CLUSTER_NAME,
        SpecReader.MAX_NAME_LENGTH);
    String sourceName = source == null ? "" : source;
    Optional<String> timestamp = Optional.empty();
    if (present(clone, "timestamp")) {
      String text = reader.string(clone, "timestamp", "spec.bootstrap.clone.timestamp", "", null, 64);
      try {
        timestamp = Optional.of(OffsetDateTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC).format(RECOVERY_TIME));
      } catch (DateTimeParseException e) {
        reader.problem("spec.bootstrap.clone.timestamp", "must be an RFC 3339 time with a zone, such as 2026-11-30T10:00:00Z");
      }
    }
    if (present(clone, "live")) {
      if (timestamp.isPresent()) {
        reader.problem("spec.bootstrap.clone.timestamp", "a live clone copies the source as it is now; remove timestamp or live");
      }
      ObjectNode live = reader.object(clone.get("live"), "spec.bootstrap.clone.live");
      return new BackupSpec.Clone(sourceName, timestamp, Optional.empty(), Optional.of(new BackupSpec.Live(
          reader.string(live, "host", "spec.bootstrap.clone.live.host",
              Names.serviceHost(Names.primaryService(sourceName), namespace), HOST, 253),
          reader.integer(live, "port", "spec.bootstrap.clone.live.port", StatefulSets.POSTGRES_PORT, 1, 65535),
          reader.string(live, "secretName", "spec.bootstrap.clone.live.secretName", Names.replicationSecret(sourceName),
              SpecReader.SECRET_NAME, 253))));
    }
    return new BackupSpec.Clone(sourceName, timestamp,
        Optional.of(sourceStore(clone, "spec.bootstrap.clone", store, sourceName)), Optional.empty());
  }

  private BackupSpec.LogicalRestore logicalRestore(ObjectNode logical, Optional<BackupSpec.S3> store) {
    String source = reader.string(logical, "cluster", "spec.bootstrap.logical.cluster", null, SpecReader.CLUSTER_NAME,
        SpecReader.MAX_NAME_LENGTH);
    String sourceName = source == null ? "" : source;
    Optional<String> backup = present(logical, "backup")
        ? Optional.ofNullable(reader.string(logical, "backup", "spec.bootstrap.logical.backup", null, BACKUP_STAMP, 16))
        : Optional.empty();
    String image = reader.string(logical, "image", "spec.bootstrap.logical.image", DEFAULT_LOGICAL_IMAGE, SpecReader.IMAGE, 512);
    return new BackupSpec.LogicalRestore(sourceName,
        sourceStore(logical, "spec.bootstrap.logical", store, sourceName), backup, image);
  }

  /** The source's store: given here, or this cluster's store with the source's default prefix. */
  private BackupSpec.S3 sourceStore(ObjectNode container, String path, Optional<BackupSpec.S3> store, String source) {
    String defaultPrefix = namespace + "/" + source;
    if (present(container, "s3")) {
      return s3(reader.object(container.get("s3"), path + ".s3"), path + ".s3", defaultPrefix, true);
    }
    if (store.isEmpty()) {
      reader.problem(path + ".s3", "is required when spec.backup.s3 is not set (where are the source's backups?)");
      return new BackupSpec.S3("", defaultPrefix, "", "", false, Optional.empty());
    }
    BackupSpec.S3 own = store.get();
    return new BackupSpec.S3(own.bucket(), defaultPrefix, own.endpoint(), own.region(), own.forcePathStyle(),
        own.credentials());
  }
}
