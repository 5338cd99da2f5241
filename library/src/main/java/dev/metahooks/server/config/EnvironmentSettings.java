package dev.metahooks.server.config;

import static dev.metahooks.server.config.ServerConfig.DEFAULT_MAX_BODY_BYTES;
import static dev.metahooks.server.config.ServerConfig.METACONTROLLER_TIMEOUT;

import dev.metahooks.logging.JsonLogging;
import dev.metahooks.server.config.ServerConfig.Recording;
import dev.metahooks.server.config.ServerConfig.Tls;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ServerConfig} from the {@code METAHOOKS_} environment: each variable parsed and checked, with the
 * variable's name in every refusal; kept apart from the settings themselves, which code builds as well.
 */
final class EnvironmentSettings {
  private static final String PREFIX = "METAHOOKS_";
  private static final Logger LOG = LoggerFactory.getLogger(ServerConfig.class);

  private EnvironmentSettings() {}

  public static ServerConfig read(Map<String, String> variables) {
    Environment env = new Environment(variables);
    ServerConfig config = read(env);
    for (String name : env.unread()) {
      LOG.atWarn().addKeyValue("variable", name).log("unknown setting " + name + " is ignored");
    }
    return config;
  }

  public static Set<String> variables() {
    Environment env = new Environment(Map.of());
    read(env);
    return Set.copyOf(env.read);
  }

  private static ServerConfig read(Environment env) {
    ServerConfig d = ServerConfig.defaults();
    level(env, JsonLogging.LEVEL_VARIABLE);
    level(env, JsonLogging.LIBRARY_LEVEL_VARIABLE);
    Path cert = file(env, "METAHOOKS_TLS_CERT_FILE");
    Path key = file(env, "METAHOOKS_TLS_KEY_FILE");
    Path clientCa = file(env, "METAHOOKS_TLS_CLIENT_CA_FILE");
    require(
        (cert == null) == (key == null),
        "METAHOOKS_TLS_CERT_FILE and METAHOOKS_TLS_KEY_FILE go together");
    require(
        clientCa == null || cert != null,
        "METAHOOKS_TLS_CLIENT_CA_FILE needs METAHOOKS_TLS_CERT_FILE");
    Duration deadline = millis(env, "METAHOOKS_HOOK_DEADLINE_MS", d.hookDeadline());
    require(
        deadline.compareTo(METACONTROLLER_TIMEOUT) < 0,
        "METAHOOKS_HOOK_DEADLINE_MS must be below "
            + METACONTROLLER_TIMEOUT.toMillis()
            + ", Metacontroller's own timeout, so that its 503 arrives first; got "
            + deadline.toMillis());
    long budget = number(env, "METAHOOKS_BODY_BUDGET_BYTES", d.bodyBudgetBytes());
    return fromValues(
        port(env, "METAHOOKS_PORT", d.port()),
        number(env, "METAHOOKS_MAX_BODY_BYTES", Math.min(DEFAULT_MAX_BODY_BYTES, budget)),
        integer(env, "METAHOOKS_MAX_CONCURRENT_HOOKS", d.maxConcurrentHooks()),
        deadline,
        millis(env, "METAHOOKS_IDLE_TIMEOUT_MS", d.idleTimeout()),
        millis(env, "METAHOOKS_SHUTDOWN_DELAY_MS", d.shutdownDelay()),
        millis(env, "METAHOOKS_SHUTDOWN_TIMEOUT_MS", d.shutdownTimeout()),
        file(env, "METAHOOKS_TOKEN_FILE"),
        cert == null ? null : new Tls(cert, key, clientCa),
        millis(env, "METAHOOKS_FILE_CHECK_INTERVAL_MS", d.fileCheckInterval()),
        bool(env, "METAHOOKS_LOG_BODIES", d.logBodies()),
        port(env, "METAHOOKS_MANAGEMENT_PORT", d.managementPort()),
        number(env, "METAHOOKS_RESPONSE_CACHE_BYTES", d.responseCacheBytes()),
        budget,
        number(env, "METAHOOKS_MAX_RESPONSE_BYTES", d.maxResponseBytes()),
        millis(env, "METAHOOKS_WRITE_TIMEOUT_MS", d.writeTimeout()),
        recording(env, d.recording()),
        millis(env, "METAHOOKS_WARM_UP_MS", ServerConfig.DEFAULT_WARM_UP));
  }

  /** The recording directory is created if missing, and must be writable now: a typo fails at start. */
  private static Recording recording(Environment env, Recording d) {
    String dir = env.get("METAHOOKS_RECORD_DIR");
    Recording read =
        new Recording(
            null,
            integer(env, "METAHOOKS_RECORD_SAMPLE", d.sample()),
            integer(env, "METAHOOKS_RECORD_MAX_FILES", d.maxFiles()),
            number(env, "METAHOOKS_RECORD_MAX_BYTES", d.maxBytes()),
            file(env, "METAHOOKS_RECORD_KEY_FILE"));
    if (read.keyFile() != null) {
      Recording.readKey(
          read.keyFile(),
          "METAHOOKS_RECORD_KEY_FILE"); // a file too short to be a key fails at start
    }
    if (dir == null) {
      return read;
    }
    try {
      Path path = Files.createDirectories(Path.of(dir));
      require(
          Files.isWritable(path),
          "METAHOOKS_RECORD_DIR: " + path + " cannot be written by this process");
      return read.in(path);
    } catch (InvalidPathException | java.io.IOException e) {
      throw new ConfigurationException(
          "METAHOOKS_RECORD_DIR: cannot use '" + dir + "': " + e.getMessage());
    }
  }

  private static ServerConfig fromValues(
      int port,
      long maxBodyBytes,
      int maxConcurrentHooks,
      Duration hookDeadline,
      Duration idleTimeout,
      Duration shutdownDelay,
      Duration shutdownTimeout,
      Path tokenFile,
      Tls tls,
      Duration fileCheckInterval,
      boolean logBodies,
      int managementPort,
      long responseCacheBytes,
      long bodyBudgetBytes,
      long maxResponseBytes,
      Duration writeTimeout,
      Recording recording,
      Duration warmUp) {
    return ServerConfig.builder()
        .port(port)
        .bodyBudgetBytes(bodyBudgetBytes)
        .maxBodyBytes(maxBodyBytes)
        .maxConcurrentHooks(maxConcurrentHooks)
        .hookDeadline(hookDeadline)
        .idleTimeout(idleTimeout)
        .shutdownDelay(shutdownDelay)
        .shutdownTimeout(shutdownTimeout)
        .tokenFile(tokenFile)
        .tls(tls)
        .fileCheckInterval(fileCheckInterval)
        .logBodies(logBodies)
        .managementPort(managementPort)
        .responseCacheBytes(responseCacheBytes)
        .maxResponseBytes(maxResponseBytes)
        .writeTimeout(writeTimeout)
        .recording(recording)
        .warmUp(warmUp)
        .build();
  }

  /** The environment, remembering which variables were read, so that the others can be reported. */
  private static final class Environment {
    private final Map<String, String> variables;
    private final Set<String> read = new HashSet<>();

    Environment(Map<String, String> variables) {
      this.variables = variables;
    }

    /** The value, trimmed; null when unset or blank. */
    String get(String name) {
      read.add(name);
      String value = variables.get(name);
      return value == null || value.isBlank() ? null : value.trim();
    }

    List<String> unread() {
      return variables.keySet().stream()
          .filter(name -> name.startsWith(PREFIX) && !read.contains(name))
          .sorted()
          .toList();
    }
  }

  /** A file the server reads (a token, a certificate, a key): it must exist and be readable now. */
  private static Path file(Environment env, String name) {
    String value = env.get(name);
    if (value == null) {
      return null;
    }
    Path file;
    try {
      file = Path.of(value);
    } catch (InvalidPathException e) {
      throw new ConfigurationException(name + ": '" + value + "' is not a path: " + e.getReason());
    }
    if (!Files.isRegularFile(file)) {
      throw new ConfigurationException(name + ": " + file + " does not exist or is not a file");
    }
    if (!Files.isReadable(file)) {
      throw new ConfigurationException(name + ": " + file + " cannot be read by this process");
    }
    return file;
  }

  private static void level(Environment env, String name) {
    String value = env.get(name);
    require(
        value == null || JsonLogging.isLevel(value),
        name + " must be one of error, warn, info, debug, trace; got '" + value + "'");
  }

  private static boolean bool(Environment env, String name, boolean fallback) {
    String value = env.get(name);
    if (value == null) {
      return fallback;
    }
    require(
        value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"),
        name + " must be true or false, got '" + value + "'");
    return value.equalsIgnoreCase("true");
  }

  private static int port(Environment env, String name, int fallback) {
    long port = number(env, name, fallback);
    require(port >= 0 && port <= 65535, name + " must be 0..65535, got " + port);
    return (int) port;
  }

  private static int integer(Environment env, String name, int fallback) {
    long value = number(env, name, fallback);
    require(
        value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE, name + " is too large: " + value);
    return (int) value;
  }

  private static Duration millis(Environment env, String name, Duration fallback) {
    return Duration.ofMillis(number(env, name, fallback.toMillis()));
  }

  private static long number(Environment env, String name, long fallback) {
    String value = env.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new ConfigurationException(name + " must be a whole number, got '" + value + "'");
    }
  }

  /** Throws a {@link ConfigurationException} with the message unless the condition holds. */
  public static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigurationException(message);
    }
  }
}
