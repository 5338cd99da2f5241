package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.bool;
import static dev.metahooks.controllers.postgres.spec.SpecFields.integer;
import static dev.metahooks.controllers.postgres.spec.SpecFields.oneOf;
import static dev.metahooks.controllers.postgres.spec.SpecFields.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.FieldProblem;
import dev.metahooks.kube.FieldProblems;
import dev.metahooks.kube.FieldReader;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads the day-1 spec from a parent the way the CRD's schema and CEL rules would check it: types, enums,
 * bounds, patterns, defaults, reserved names. The API server may not have checked (CEL off, or the object older
 * than a rule), so every rule is checked again here.
 *
 * <p>Reading never stops at the first problem: the spec is read with {@link FieldReader} in its collecting mode,
 * each bad field falls back to its default and is listed, so the condition can name every field to fix, and the
 * fields that decide safety ({@code paused}, {@code deletionProtection}) are still known. An unreadable
 * {@code deletionProtection} counts as true. The users, the updates, the resources and the backups have readers of
 * their own ({@link UserSpecReader}, {@link UpdateSpecReader}, {@link ResourceSpecReader},
 * {@link BackupSpecReader}); {@link SpecFields} has the rules of one field.
 */
public final class SpecReader {
  public static final int MAX_NAME_LENGTH = 40;
  public static final int MAX_USERS = 32;
  public static final int MAX_DATABASES = 16;
  public static final int MAX_PARAMETERS = 100;

  /** Role names Spilo or PostgreSQL already use. */
  public static final List<String> RESERVED_USERS =
      List.of("postgres", "standby", "admin", "zalandos", "public", "none");

  public static final List<String> RESERVED_DATABASES =
      List.of("postgres", "template0", "template1");
  public static final List<String> USER_OPTIONS = List.of("CREATEDB", "CREATEROLE");

  /**
   * Settings Patroni and Spilo own (addresses, paths, replication, recovery, TLS, Patroni's synchronous mode) or
   * that belong to day 2 (archiving), and settings that would leak secrets.
   */
  public static final List<String> RESERVED_PARAMETERS =
      List.of(
          "archive_cleanup_command",
          "archive_command",
          "archive_mode",
          "cluster_name",
          "config_file",
          "data_directory",
          "hba_file",
          "hot_standby",
          "ident_file",
          "listen_addresses",
          "pg_stat_statements.track_utility",
          "port",
          "primary_conninfo",
          "primary_slot_name",
          "promote_trigger_file",
          "recovery_end_command",
          "recovery_target",
          "recovery_target_action",
          "recovery_target_inclusive",
          "recovery_target_lsn",
          "recovery_target_name",
          "recovery_target_time",
          "recovery_target_timeline",
          "recovery_target_xid",
          "restore_command",
          "ssl",
          "ssl_ca_file",
          "ssl_cert_file",
          "ssl_crl_file",
          "ssl_key_file",
          "synchronous_standby_names",
          "unix_socket_directories");

  /** Why a reserved setting is refused, when it is not simply Patroni's or Spilo's. */
  public static final Map<String, String> RESERVED_BECAUSE =
      Map.of(
          "pg_stat_statements.track_utility",
          "would record every utility statement, password changes included, in "
              + "pg_stat_statements (Spilo keeps it off)");

  /** wal_level values that keep replication and Patroni working (minimal stops PostgreSQL starting under Patroni). */
  public static final List<String> WAL_LEVELS =
      List.of("replica", "logical", "hot_standby", "archive");

  /** The smallest memory limit with which Spilo starts Patroni and PostgreSQL. */
  public static final String MIN_MEMORY_LIMIT = "256Mi";

  /** The memory limit when none is given (or the memory request, if larger): Spilo sizes PostgreSQL from it. */
  public static final String DEFAULT_MEMORY_LIMIT = "512Mi";

  /** The first PostgreSQL version where CREATEROLE no longer lets a role make itself superuser. */
  public static final int CREATEROLE_SAFE_FROM = 16;

  public static final Pattern LIBRARY_LIST =
      Pattern.compile("[A-Za-z0-9_.$-]+(\\s*,\\s*[A-Za-z0-9_.$-]+)*");

  public static final Pattern CLUSTER_NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  public static final Pattern USER_NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  public static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
  public static final Pattern PARAMETER_NAME =
      Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)?");
  public static final Pattern TOPOLOGY_KEY =
      Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  public static final Pattern IMAGE = Pattern.compile("\\S+");
  public static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

  public static final int MAX_SYNCHRONOUS_NODES = 15;

  private SpecReader() {}

  /** A spec with every default applied, and the problems found; the spec is only safe to render without problems. */
  public record Result(ClusterSpec spec, List<FieldProblem> problems) {
    public boolean valid() {
      return problems.isEmpty();
    }
  }

  public static Result read(ObjectNode parent) {
    return read(parent, Optional.empty());
  }

  /**
   * {@code archiving}: the archive the cluster's pods archive into now ({@code s3://<bucket>/<prefix>}, from the
   * observed StatefulSet), which the default prefix keeps ({@link DefaultArchive}).
   */
  public static Result read(ObjectNode parent, Optional<String> archiving) {
    FieldProblems problems = FieldProblems.collecting();
    String namespace = parent.path("metadata").path("namespace").asText("");
    String name = parent.path("metadata").path("name").asText("");
    checkName(name, problems);
    ClusterSpec spec =
        spec(
            FieldReader.optional(parent.get("spec"), "spec", problems),
            namespace,
            name,
            DefaultArchive.of(parent, archiving));
    checkStrictCanHold(spec, problems);
    return new Result(spec, problems.list());
  }

  /**
   * Strict synchronous mode with fewer than {@code 1 + nodeCount} instances: with no standby to pick, Patroni sets
   * {@code synchronous_standby_names = '*'} and every commit waits (patroni/ha.py:609-610 at v3.0.2,
   * process_sync_replication). Hibernation is refused too (a strict cluster woken from zero starts with one
   * member): {@code sync} first, then 0.
   */
  private static void checkStrictCanHold(ClusterSpec spec, FieldProblems problems) {
    ClusterSpec.Patroni patroni = spec.patroni();
    int needed = 1 + patroni.synchronousNodeCount();
    if ("strict".equals(patroni.synchronousMode()) && spec.instances() < needed) {
      problems.add(
          "spec.patroni.synchronous.mode",
          "strict needs at least "
              + needed
              + " instances (1 + nodeCount), "
              + "not "
              + spec.instances()
              + ": without a synchronous standby streaming every commit waits; use sync, "
              + "or raise instances");
    }
  }

  private static void checkName(String name, FieldProblems problems) {
    if (name.length() > MAX_NAME_LENGTH) {
      problems.add(
          "metadata.name",
          "must be at most "
              + MAX_NAME_LENGTH
              + " characters, so that every child name (Services, the users Job) fits in 63");
    } else if (!CLUSTER_NAME.matcher(name).matches()) {
      problems.add(
          "metadata.name",
          "must be a DNS label that starts with a letter (Service names are derived from it)");
    }
  }

  private static ClusterSpec spec(
      FieldReader spec, String namespace, String name, DefaultArchive archive) {
    int version = integer(spec, "postgresVersion", ClusterSpec.DEFAULT_VERSION, 13, 17);
    List<ClusterSpec.User> users = UserSpecReader.read(spec, version);
    List<ClusterSpec.Database> databases = DatabaseSpecReader.read(spec, users);
    UserSpecReader.checkConnect(spec, users, databases);
    BackupSpec backups = BackupSpecReader.read(spec, namespace, archive);
    return new ClusterSpec(
        version,
        string(spec, "image", ClusterSpec.DEFAULT_IMAGE, IMAGE, 512),
        integer(spec, "instances", 1, 0, 16),
        bool(spec, "paused", false, true),
        ResourceSpecReader.read(spec),
        storage(spec.objectOrEmpty("storage")),
        parameters(spec.objectOrEmpty("postgresql").objectOrEmpty("parameters")),
        users,
        databases,
        availability(spec.objectOrEmpty("availability")),
        services(spec.objectOrEmpty("services")),
        UpdateSpecReader.read(spec.objectOrEmpty("updates")),
        bool(spec, "deletionProtection", false, true),
        monitoring(spec.objectOrEmpty("monitoring")),
        pooler(spec),
        backups,
        networkPolicy(spec.objectOrEmpty("networkPolicy")),
        tls(spec),
        patroni(spec.objectOrEmpty("patroni")),
        PodSchedulingReader.read(spec),
        WalVolumeReader.read(spec),
        StandbySpecReader.read(spec, namespace, backups.backup()));
  }

  private static ClusterSpec.Monitoring monitoring(FieldReader monitoring) {
    return new ClusterSpec.Monitoring(
        bool(monitoring, "enabled", false, false),
        string(monitoring, "image", ClusterSpec.DEFAULT_EXPORTER_IMAGE, IMAGE, 512));
  }

  /** Given at all, the pooler is on unless {@code enabled: false}: {@code pooler: {instances: 2}} is enough. */
  private static ClusterSpec.Pooler pooler(FieldReader spec) {
    boolean given = spec.isSet("pooler");
    FieldReader pooler = spec.objectOrEmpty("pooler");
    return new ClusterSpec.Pooler(
        bool(pooler, "enabled", given, false),
        integer(pooler, "instances", 2, 1, 16),
        oneOf(pooler, "mode", "session", List.of("session", "transaction")),
        integer(pooler, "defaultPoolSize", 20, 1, 1000),
        integer(pooler, "maxClientConnections", 1000, 1, 100000),
        string(pooler, "image", ClusterSpec.DEFAULT_POOLER_IMAGE, IMAGE, 512));
  }

  private static ClusterSpec.Storage storage(FieldReader storage) {
    String given = string(storage, "size", "1Gi", null, 32);
    String size = given;
    if (!Quantities.valid(given) || Quantities.bytes(given).signum() <= 0) {
      storage.report("size", "must be a positive quantity such as 1Gi");
    } else {
      // The claim template carries it as the API server stores it (10240Mi is stored as 10Gi).
      size = Quantities.stored(given);
    }
    String storageClass = string(storage, "storageClassName", null, null, 253);
    FieldReader retention = storage.objectOrEmpty("retentionPolicy");
    List<String> policies = List.of("Retain", "Delete");
    return new ClusterSpec.Storage(
        size,
        storageClass,
        oneOf(retention, "whenDeleted", "Retain", policies),
        oneOf(retention, "whenScaled", "Retain", policies));
  }

  private static Map<String, String> parameters(FieldReader parameters) {
    Map<String, String> out = new TreeMap<>();
    if (parameters.node().size() > MAX_PARAMETERS) {
      parameters
          .problems()
          .add(parameters.path(), "must have at most " + MAX_PARAMETERS + " settings");
    }
    parameters
        .node()
        .properties()
        .forEach(
            entry -> {
              String name = entry.getKey();
              JsonNode value = entry.getValue();
              // PostgreSQL's own notation (pg_stat_statements.track_utility), not a JSON path's
              // brackets
              String path = parameters.path() + "." + name;
              String problem = parameterProblem(name, value);
              if (problem != null) {
                parameters.problems().add(path, problem);
              } else {
                out.put(name, value.asText());
              }
            });
    return Collections.unmodifiableMap(out);
  }

  /** Why a setting is refused, or null: its value is a string, as in postgresql.conf (numbers quoted). */
  private static String parameterProblem(String name, JsonNode value) {
    if (!PARAMETER_NAME.matcher(name).matches() || name.length() > 63) {
      return "is not a PostgreSQL setting name";
    } else if (RESERVED_PARAMETERS.contains(name)) {
      return "cannot be set here: it "
          + RESERVED_BECAUSE.getOrDefault(name, "is managed by Patroni and Spilo");
    } else if (!value.isTextual()) {
      return "must be a string (quote numbers and booleans)";
    } else if (value.asText().length() > 4096) {
      return "must be at most 4096 characters";
    } else if (name.equals("wal_level") && !WAL_LEVELS.contains(value.asText())) {
      return "must be replica or logical: streaming replicas and Patroni need at least replica";
    } else if (name.equals("shared_preload_libraries")
        && !LIBRARY_LIST.matcher(value.asText()).matches()) {
      return "must be a comma-separated list of library names (they are added to Spilo's own)";
    }
    return null;
  }

  private static ClusterSpec.Availability availability(FieldReader availability) {
    return new ClusterSpec.Availability(
        oneOf(
            availability, "podAntiAffinity", "preferred", List.of("preferred", "required", "none")),
        string(availability, "topologyKey", "kubernetes.io/hostname", TOPOLOGY_KEY, 253),
        bool(availability, "podDisruptionBudget", true, true));
  }

  private static ClusterSpec.ServiceOptions services(FieldReader services) {
    FieldReader primary = services.objectOrEmpty("primary");
    FieldReader replicas = services.objectOrEmpty("replicas");
    return new ClusterSpec.ServiceOptions(
        oneOf(primary, "type", "ClusterIP", List.of("ClusterIP", "NodePort", "LoadBalancer")),
        bool(replicas, "enabled", true, true));
  }

  private static ClusterSpec.Patroni patroni(FieldReader patroni) {
    FieldReader synchronous = patroni.objectOrEmpty("synchronous");
    return new ClusterSpec.Patroni(
        bool(patroni, "failsafeMode", true, true),
        // Not off/on: YAML 1.1 (kubectl's) reads those unquoted as booleans, which a string field
        // refuses.
        oneOf(synchronous, "mode", "async", List.of("async", "sync", "strict")),
        integer(synchronous, "nodeCount", 1, 1, MAX_SYNCHRONOUS_NODES));
  }

  private static NetworkPolicySpec networkPolicy(FieldReader policy) {
    if (policy.node().isEmpty()) {
      return NetworkPolicySpec.OFF;
    }
    boolean enabled = bool(policy, "enabled", false, false);
    List<ObjectNode> clients =
        NetworkPolicySpec.clients(policy.get("clients"), policy.path("clients"), policy.problems());
    return new NetworkPolicySpec(
        enabled,
        clients,
        policy.isSet("monitoring")
            ? NetworkPolicySpec.peer(
                policy.get("monitoring"), policy.path("monitoring"), policy.problems())
            : Optional.empty());
  }

  private static Optional<TlsSpec> tls(FieldReader spec) {
    if (!spec.isSet("tls")) {
      return Optional.empty();
    }
    FieldReader tls = spec.objectOrEmpty("tls");
    Optional<String> secretName = SpecFields.required(tls, "secretName", SECRET_NAME, 253);
    boolean restApi = bool(tls, "restApi", false, false);
    return secretName.map(secret -> new TlsSpec(secret, restApi));
  }
}
