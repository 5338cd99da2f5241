package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads the day-1 spec from a parent the way the CRD's schema and CEL rules would check it: types, enums,
 * bounds, patterns, defaults, reserved names. The API server may not have checked (CEL off, or the object older
 * than a rule), so every rule is checked again here.
 *
 * <p>Reading never stops at the first problem: each bad field falls back to its default and is listed, so the
 * condition can name every field to fix, and the fields that decide safety ({@code paused},
 * {@code deletionProtection}) are still known. An unreadable {@code deletionProtection} counts as true.
 */
public final class SpecReader {
  public static final int MAX_NAME_LENGTH = 40;
  public static final int MAX_USERS = 32;
  public static final int MAX_DATABASES = 16;
  public static final int MAX_PARAMETERS = 100;

  /** Role names Spilo or PostgreSQL already use. */
  public static final List<String> RESERVED_USERS = List.of("postgres", "standby", "admin", "zalandos", "public", "none");
  public static final List<String> RESERVED_DATABASES = List.of("postgres", "template0", "template1");
  public static final List<String> USER_OPTIONS = List.of("CREATEDB", "CREATEROLE");
  /**
   * Settings Patroni and Spilo own (addresses, paths, replication, recovery, TLS, Patroni's synchronous mode) or
   * that belong to day 2 (archiving), and settings that would leak secrets.
   */
  public static final List<String> RESERVED_PARAMETERS = List.of(
      "archive_cleanup_command", "archive_command", "archive_mode", "cluster_name", "config_file", "data_directory",
      "hba_file", "hot_standby", "ident_file", "listen_addresses", "pg_stat_statements.track_utility", "port",
      "primary_conninfo", "primary_slot_name", "promote_trigger_file", "recovery_end_command",
      "recovery_target", "recovery_target_action", "recovery_target_inclusive", "recovery_target_lsn",
      "recovery_target_name", "recovery_target_time", "recovery_target_timeline", "recovery_target_xid",
      "restore_command", "ssl", "ssl_ca_file", "ssl_cert_file", "ssl_crl_file", "ssl_key_file",
      "synchronous_standby_names", "unix_socket_directories");
  /** Why a reserved setting is refused, when it is not simply Patroni's or Spilo's. */
  static final Map<String, String> RESERVED_BECAUSE = Map.of(
      "pg_stat_statements.track_utility", "would record every utility statement, password changes included, in "
          + "pg_stat_statements (Spilo keeps it off)");
  /** wal_level values that keep replication and Patroni working (minimal stops PostgreSQL starting under Patroni). */
  static final List<String> WAL_LEVELS = List.of("replica", "logical", "hot_standby", "archive");
  /** The smallest memory limit with which Spilo starts Patroni and PostgreSQL. */
  public static final String MIN_MEMORY_LIMIT = "256Mi";
  /** The memory limit when none is given (or the memory request, if larger): Spilo sizes PostgreSQL from it. */
  public static final String DEFAULT_MEMORY_LIMIT = "512Mi";
  /** The first PostgreSQL version where CREATEROLE no longer lets a role make itself superuser. */
  public static final int CREATEROLE_SAFE_FROM = 16;
  static final Pattern LIBRARY_LIST = Pattern.compile("[A-Za-z0-9_.$-]+(\\s*,\\s*[A-Za-z0-9_.$-]+)*");

  static final Pattern CLUSTER_NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  static final Pattern USER_NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
  static final Pattern PARAMETER_NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)?");
  static final Pattern TOPOLOGY_KEY = Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  static final Pattern IMAGE = Pattern.compile("\\S+");
  static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

  private final List<SpecProblem> problems = new ArrayList<>();

  private SpecReader() {}

  /** A spec with every default applied, and the problems found; the spec is only safe to render without problems. */
  public record Result(ClusterSpec spec, List<SpecProblem> problems) {
    public boolean valid() {
      return problems.isEmpty();
    }
  }

  public static Result read(ObjectNode parent) {
    SpecReader reader = new SpecReader();
    reader.checkName(parent.path("metadata").path("name").asText(""));
    ClusterSpec spec = reader.spec(parent.get("spec"), parent.path("metadata").path("namespace").asText(""),
        parent.path("metadata").path("name").asText(""));
    return new Result(spec, List.copyOf(reader.problems));
  }

  private void checkName(String name) {
    if (name.length() > MAX_NAME_LENGTH) {
      problem("metadata.name", "must be at most " + MAX_NAME_LENGTH
          + " characters, so that every child name (Services, the users Job) fits in 63");
    } else if (!CLUSTER_NAME.matcher(name).matches()) {
      problem("metadata.name", "must be a DNS label that starts with a letter (Service names are derived from it)");
    }
  }

  private ClusterSpec spec(JsonNode node, String namespace, String name) {
    ObjectNode spec = object(node, "spec");
    int version = integer(spec, "postgresVersion", "spec.postgresVersion", ClusterSpec.DEFAULT_VERSION, 13, 17);
    return new ClusterSpec(
        version,
        string(spec, "image", "spec.image", ClusterSpec.DEFAULT_IMAGE, IMAGE, 512),
        integer(spec, "instances", "spec.instances", 1, 0, 16),
        bool(spec, "paused", "spec.paused", false, true),
        resources(spec.get("resources")),
        storage(object(spec.get("storage"), "spec.storage")),
        parameters(object(object(spec.get("postgresql"), "spec.postgresql").get("parameters"), "spec.postgresql.parameters")),
        users(spec.get("users"), version),
        availability(object(spec.get("availability"), "spec.availability")),
        services(object(spec.get("services"), "spec.services")),
        updates(object(spec.get("updates"), "spec.updates")),
        bool(spec, "deletionProtection", "spec.deletionProtection", false, true),
        monitoring(object(spec.get("monitoring"), "spec.monitoring")),
        pooler(spec.get("pooler")),
        BackupSpecReader.read(this, spec, namespace, name),
        networkPolicy(object(spec.get("networkPolicy"), "spec.networkPolicy")),
        tls(spec.get("tls")),
        patroni(object(spec.get("patroni"), "spec.patroni")));
  }

  private ClusterSpec.Monitoring monitoring(ObjectNode monitoring) {
    return new ClusterSpec.Monitoring(
        bool(monitoring, "enabled", "spec.monitoring.enabled", false, false),
        string(monitoring, "image", "spec.monitoring.image", Exporters.DEFAULT_IMAGE, IMAGE, 512));
  }

  /** Given at all, the pooler is on unless {@code enabled: false}: {@code pooler: {instances: 2}} is enough. */
  private ClusterSpec.Pooler pooler(JsonNode node) {
    boolean given = node != null && !node.isNull();
    ObjectNode pooler = object(node, "spec.pooler");
    return new ClusterSpec.Pooler(
        bool(pooler, "enabled", "spec.pooler.enabled", given, false),
        integer(pooler, "instances", "spec.pooler.instances", 2, 1, 16),
        oneOf(pooler, "mode", "spec.pooler.mode", "session", List.of("session", "transaction")),
        integer(pooler, "defaultPoolSize", "spec.pooler.defaultPoolSize", 20, 1, 1000),
        integer(pooler, "maxClientConnections", "spec.pooler.maxClientConnections", 1000, 1, 100000),
        string(pooler, "image", "spec.pooler.image", Poolers.DEFAULT_IMAGE, IMAGE, 512));
  }

  private ObjectNode resources(JsonNode node) {
    ObjectNode resources = Json.object();
    if (node == null || node.isNull()) {
      resources.putObject("requests").put("cpu", "100m").put("memory", "256Mi");
      resources.putObject("limits").put("memory", DEFAULT_MEMORY_LIMIT);
      return resources;
    }
    ObjectNode given = object(node, "spec.resources");
    for (String section : List.of("requests", "limits")) {
      JsonNode values = given.get(section);
      if (values == null || values.isNull()) {
        continue;
      }
      String path = "spec.resources." + section;
      ObjectNode map = object(values, path);
      ObjectNode out = resources.putObject(section);
      new TreeMap<>(fields(map)).forEach((name, value) -> {
        String quantity = value.isTextual() ? value.asText() : value.isIntegralNumber() ? value.asText() : null;
        if (quantity == null || !Quantities.valid(quantity)) {
          problem(path + "." + name, "must be a quantity such as 500m, 2 or 1Gi");
        } else {
          out.put(name, quantity);
        }
      });
    }
    memoryLimit(resources);
    return resources;
  }

  /**
   * Spilo sizes shared_buffers and max_connections from the memory limit, or from the node's memory without one:
   * a limit is always set (the default, or the request when that is larger), and one too small to start is refused.
   */
  private void memoryLimit(ObjectNode resources) {
    String request = resources.path("requests").path("memory").asText(null);
    String limit = resources.path("limits").path("memory").asText(null);
    if (limit == null) {
      boolean requestLarger = request != null && Quantities.valid(request)
          && Quantities.bytes(request).compareTo(Quantities.bytes(DEFAULT_MEMORY_LIMIT)) > 0;
      resources.withObject("/limits").put("memory", requestLarger ? request : DEFAULT_MEMORY_LIMIT);
      return;
    }
    if (Quantities.bytes(limit).compareTo(Quantities.bytes(MIN_MEMORY_LIMIT)) < 0) {
      problem("spec.resources.limits.memory", "must be at least " + MIN_MEMORY_LIMIT
          + ": Patroni and PostgreSQL do not start with less");
    } else if (request != null && Quantities.bytes(request).compareTo(Quantities.bytes(limit)) > 0) {
      problem("spec.resources.requests.memory", "must not be more than limits.memory (" + limit + ")");
    }
  }

  private ClusterSpec.Storage storage(ObjectNode storage) {
    String size = string(storage, "size", "spec.storage.size", "1Gi", null, 32);
    if (!Quantities.valid(size) || Quantities.bytes(size).signum() <= 0) {
      problem("spec.storage.size", "must be a positive quantity such as 1Gi");
    }
    String storageClass = null;
    JsonNode className = storage.get("storageClassName");
    if (className != null && !className.isNull()) {
      storageClass = string(storage, "storageClassName", "spec.storage.storageClassName", null, null, 253);
    }
    ObjectNode retention = object(storage.get("retentionPolicy"), "spec.storage.retentionPolicy");
    List<String> policies = List.of("Retain", "Delete");
    return new ClusterSpec.Storage(size, storageClass,
        oneOf(retention, "whenDeleted", "spec.storage.retentionPolicy.whenDeleted", "Retain", policies),
        oneOf(retention, "whenScaled", "spec.storage.retentionPolicy.whenScaled", "Retain", policies));
  }

  private Map<String, String> parameters(ObjectNode parameters) {
    Map<String, String> out = new TreeMap<>();
    if (parameters.size() > MAX_PARAMETERS) {
      problem("spec.postgresql.parameters", "must have at most " + MAX_PARAMETERS + " settings");
    }
    fields(parameters).forEach((name, value) -> {
      String path = "spec.postgresql.parameters." + name;
      if (!PARAMETER_NAME.matcher(name).matches() || name.length() > 63) {
        problem(path, "is not a PostgreSQL setting name");
      } else if (RESERVED_PARAMETERS.contains(name)) {
        problem(path, "cannot be set here: it " + RESERVED_BECAUSE.getOrDefault(name, "is managed by Patroni and Spilo"));
      } else if (!value.isTextual()) {
        problem(path, "must be a string (quote numbers and booleans)");
      } else if (value.asText().length() > 4096) {
        problem(path, "must be at most 4096 characters");
      } else if (name.equals("wal_level") && !WAL_LEVELS.contains(value.asText())) {
        problem(path, "must be replica or logical: streaming replicas and Patroni need at least replica");
      } else if (name.equals("shared_preload_libraries") && !LIBRARY_LIST.matcher(value.asText()).matches()) {
        problem(path, "must be a comma-separated list of library names (they are added to Spilo's own)");
      } else {
        out.put(name, value.asText());
      }
    });
    return Collections.unmodifiableMap(out);
  }

  private List<ClusterSpec.User> users(JsonNode node, int version) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      problem("spec.users", "must be a list");
      return List.of();
    }
    if (node.size() > MAX_USERS) {
      problem("spec.users", "must have at most " + MAX_USERS + " users");
    }
    List<ClusterSpec.User> users = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<String, String> databaseOwners = new HashMap<>();
    for (int i = 0; i < node.size(); i++) {
      String path = "spec.users[" + i + "]";
      ObjectNode user = object(node.get(i), path);
      String name = string(user, "name", path + ".name", null, USER_NAME, 63);
      if (name == null) {
        continue;
      }
      if (RESERVED_USERS.contains(name)) {
        problem(path + ".name", "\"" + name + "\" is reserved for Spilo or PostgreSQL");
      } else if (!names.add(name)) {
        problem(path + ".name", "\"" + name + "\" is listed twice");
      }
      List<String> databases = stringList(user.get("databases"), path + ".databases", DATABASE_NAME, MAX_DATABASES);
      for (int d = 0; d < databases.size(); d++) {
        String database = databases.get(d);
        String databasePath = path + ".databases[" + d + "]";
        if (RESERVED_DATABASES.contains(database)) {
          problem(databasePath, "\"" + database + "\" is a system database");
        }
        String owner = databaseOwners.putIfAbsent(database, name);
        if (owner != null && !owner.equals(name)) {
          problem(databasePath, "\"" + database + "\" is already owned by user \"" + owner + "\"");
        }
      }
      List<String> options = stringList(user.get("options"), path + ".options", null, USER_OPTIONS.size());
      for (int o = 0; o < options.size(); o++) {
        String option = options.get(o);
        if (option.equals("SUPERUSER") || option.equals("REPLICATION")) {
          problem(path + ".options[" + o + "]", option + " is refused: application roles must not bypass the cluster's safety");
        } else if (!USER_OPTIONS.contains(option)) {
          problem(path + ".options[" + o + "]", "must be one of " + String.join(", ", USER_OPTIONS) + " (LOGIN is implied)");
        }
      }
      if (options.contains("CREATEROLE") && version < CREATEROLE_SAFE_FROM) {
        problem(path + ".options", "CREATEROLE is refused below PostgreSQL " + CREATEROLE_SAFE_FROM
            + ": on " + version + " a CREATEROLE role can grant itself pg_execute_server_program and so become superuser");
      }
      List<String> connect = stringList(user.get("connect"), path + ".connect", DATABASE_NAME, MAX_DATABASES);
      users.add(new ClusterSpec.User(name, databases, options, connect));
    }
    for (int i = 0; i < users.size(); i++) {
      ClusterSpec.User user = users.get(i);
      for (int c = 0; c < user.connect().size(); c++) {
        String database = user.connect().get(c);
        String owner = databaseOwners.get(database);
        if (owner == null || owner.equals(user.name())) {
          problem("spec.users[" + i + "].connect[" + c + "]", "\"" + database
              + "\" is not a database of another user of this cluster");
        }
      }
    }
    return List.copyOf(users);
  }

  private ClusterSpec.Availability availability(ObjectNode availability) {
    return new ClusterSpec.Availability(
        oneOf(availability, "podAntiAffinity", "spec.availability.podAntiAffinity", "preferred",
            List.of("preferred", "required", "none")),
        string(availability, "topologyKey", "spec.availability.topologyKey", "kubernetes.io/hostname", TOPOLOGY_KEY, 253),
        bool(availability, "podDisruptionBudget", "spec.availability.podDisruptionBudget", true, true));
  }

  private ClusterSpec.ServiceOptions services(ObjectNode services) {
    ObjectNode primary = object(services.get("primary"), "spec.services.primary");
    ObjectNode replicas = object(services.get("replicas"), "spec.services.replicas");
    return new ClusterSpec.ServiceOptions(
        oneOf(primary, "type", "spec.services.primary.type", "ClusterIP", List.of("ClusterIP", "NodePort", "LoadBalancer")),
        bool(replicas, "enabled", "spec.services.replicas.enabled", true, true));
  }

  private ClusterSpec.Updates updates(ObjectNode updates) {
    String method = oneOf(updates, "method", "spec.updates.method", "switchover", List.of("switchover", "restart"));
    List<MaintenanceWindows.Window> windows = maintenanceWindows(updates.get("maintenanceWindows"));
    if (!windows.isEmpty() && !method.equals("switchover")) {
      problem("spec.updates.maintenanceWindows", "needs updates.method switchover: under restart the StatefulSet "
          + "restarts the primary whenever its ordinal comes");
    }
    return new ClusterSpec.Updates(method, windows);
  }

  static final List<String> DAYS = List.of("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
  static final Pattern TIME_OF_DAY = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");
  public static final int MAX_WINDOWS = 14;

  private List<MaintenanceWindows.Window> maintenanceWindows(JsonNode node) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      problem("spec.updates.maintenanceWindows", "must be a list");
      return List.of();
    }
    if (node.size() > MAX_WINDOWS) {
      problem("spec.updates.maintenanceWindows", "must have at most " + MAX_WINDOWS + " windows");
    }
    List<MaintenanceWindows.Window> windows = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String path = "spec.updates.maintenanceWindows[" + i + "]";
      ObjectNode window = object(node.get(i), path);
      List<String> days = stringList(window.get("days"), path + ".days", null, DAYS.size());
      Set<DayOfWeek> weekdays = EnumSet.noneOf(DayOfWeek.class);
      for (int d = 0; d < days.size(); d++) {
        int index = DAYS.indexOf(days.get(d));
        if (index < 0) {
          problem(path + ".days[" + d + "]", "must be one of " + String.join(", ", DAYS));
        } else {
          weekdays.add(DayOfWeek.of(index + 1));
        }
      }
      String start = string(window, "start", path + ".start", null, TIME_OF_DAY, 5);
      String end = string(window, "end", path + ".end", null, TIME_OF_DAY, 5);
      if (start != null && start.equals(end)) {
        problem(path + ".end", "must differ from start (a window that ends before its start ends the next day)");
      } else if (start != null && end != null) {
        windows.add(new MaintenanceWindows.Window(weekdays.isEmpty() ? EnumSet.allOf(DayOfWeek.class)
            : weekdays, LocalTime.parse(start), LocalTime.parse(end)));
      }
    }
    return List.copyOf(windows);
  }

  public static final int MAX_SYNCHRONOUS_NODES = 15;

  private ClusterSpec.Patroni patroni(ObjectNode patroni) {
    ObjectNode synchronous = object(patroni.get("synchronous"), "spec.patroni.synchronous");
    return new ClusterSpec.Patroni(
        bool(patroni, "failsafeMode", "spec.patroni.failsafeMode", true, true),
        // Not off/on: YAML 1.1 (kubectl's) reads those unquoted as booleans, which a string field refuses.
        oneOf(synchronous, "mode", "spec.patroni.synchronous.mode", "async", List.of("async", "sync", "strict")),
        integer(synchronous, "nodeCount", "spec.patroni.synchronous.nodeCount", 1, 1, MAX_SYNCHRONOUS_NODES));
  }

  private NetworkPolicies.Spec networkPolicy(ObjectNode policy) {
    if (policy.isEmpty()) {
      return NetworkPolicies.Spec.OFF;
    }
    boolean enabled = bool(policy, "enabled", "spec.networkPolicy.enabled", false, false);
    List<ObjectNode> clients = NetworkPolicies.clients(policy.get("clients"), "spec.networkPolicy.clients", problems);
    JsonNode monitoring = policy.get("monitoring");
    return new NetworkPolicies.Spec(enabled, clients, monitoring == null || monitoring.isNull() ? Optional.empty()
        : NetworkPolicies.peer(monitoring, "spec.networkPolicy.monitoring", problems));
  }

  private Optional<Tls.Spec> tls(JsonNode node) {
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    ObjectNode tls = object(node, "spec.tls");
    String secretName = string(tls, "secretName", "spec.tls.secretName", null, SECRET_NAME, 253);
    boolean restApi = bool(tls, "restApi", "spec.tls.restApi", false, false);
    return secretName == null ? Optional.empty() : Optional.of(new Tls.Spec(secretName, restApi));
  }

  // --- field readers: each returns the default when the field is absent, or when it is wrong (and says so) ---

  ObjectNode object(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return Json.object();
    }
    if (!node.isObject()) {
      problem(path, "must be an object");
      return Json.object();
    }
    return (ObjectNode) node;
  }

  int integer(ObjectNode container, String field, String path, int fallback, int min, int max) {
    JsonNode value = container.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isIntegralNumber() && !(value.isFloatingPointNumber() && value.asDouble() == Math.rint(value.asDouble()))) {
      problem(path, "must be an integer");
      return fallback;
    }
    if (value.asDouble() < min || value.asDouble() > max) {
      problem(path, "must be between " + min + " and " + max);
      return fallback;
    }
    return value.asInt();
  }

  /** A boolean; {@code whenUnreadable} is what a wrong value counts as (true where true is the safe side). */
  boolean bool(ObjectNode container, String field, String path, boolean fallback, boolean whenUnreadable) {
    JsonNode value = container.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isBoolean()) {
      problem(path, "must be true or false");
      return whenUnreadable;
    }
    return value.booleanValue();
  }

  String string(ObjectNode container, String field, String path, String fallback, Pattern pattern, int maxLength) {
    JsonNode value = container.get(field);
    if (value == null || value.isNull()) {
      if (fallback == null) {
        problem(path, "is required");
      }
      return fallback;
    }
    if (!value.isTextual()) {
      problem(path, "must be a string");
      return fallback;
    }
    String text = value.asText();
    if (text.isEmpty() || text.length() > maxLength) {
      problem(path, "must be 1 to " + maxLength + " characters");
      return fallback;
    }
    if (pattern != null && !pattern.matcher(text).matches()) {
      problem(path, "must match " + pattern.pattern());
      return fallback;
    }
    return text;
  }

  String oneOf(ObjectNode container, String field, String path, String fallback, List<String> allowed) {
    JsonNode value = container.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isTextual() || !allowed.contains(value.asText())) {
      problem(path, "must be one of " + String.join(", ", allowed));
      return fallback;
    }
    return value.asText();
  }

  List<String> stringList(JsonNode node, String path, Pattern pattern, int maxItems) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      problem(path, "must be a list");
      return List.of();
    }
    if (node.size() > maxItems) {
      problem(path, "must have at most " + maxItems + " items");
    }
    Set<String> items = new LinkedHashSet<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode item = node.get(i);
      String itemPath = path + "[" + i + "]";
      if (!item.isTextual() || item.asText().isEmpty() || item.asText().length() > 63) {
        problem(itemPath, "must be a string of 1 to 63 characters");
      } else if (pattern != null && !pattern.matcher(item.asText()).matches()) {
        problem(itemPath, "must match " + pattern.pattern());
      } else if (!items.add(item.asText())) {
        problem(itemPath, "\"" + item.asText() + "\" is listed twice");
      }
    }
    return List.copyOf(items);
  }

  private static Map<String, JsonNode> fields(ObjectNode object) {
    Map<String, JsonNode> fields = new java.util.LinkedHashMap<>();
    object.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
    return fields;
  }

  void problem(String field, String message) {
    problems.add(new SpecProblem(field, message));
  }
}
